// A thin RAII layer over the SQLite C API: an open database with a cache of prepared
// statements, and errors as values. Not thread-safe: one owner thread per SqliteDb.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "shared/base/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace fairway::daemon {

// One prepared statement. Bind indices are 1-based, column indices 0-based (SQLite's).
// Text and blobs are copied on bind, so the caller's buffers may die before step().
class SqliteStatement {
 public:
  SqliteStatement(sqlite3* db, sqlite3_stmt* stmt, std::string sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  Status bind_int64(int index, std::int64_t value);
  Status bind_text(int index, std::string_view value);
  Status bind_blob(int index, std::string_view bytes);
  Status bind_null(int index);

  // true: a row is ready to read; false: the statement ran to completion. A UNIQUE or
  // PRIMARY KEY violation is ErrorCode::kAlreadyExists, every other failure kIo.
  Result<bool> step();
  // The extended result code of the last failed step (e.g. SQLITE_CONSTRAINT_PRIMARYKEY).
  int last_error_code() const { return last_error_code_; }
  // Makes the statement ready to run again and drops its bindings.
  void reset();

  // SQLITE_INTEGER, SQLITE_TEXT, SQLITE_BLOB, SQLITE_NULL or SQLITE_FLOAT.
  int column_type(int column) const;
  std::int64_t column_int64(int column) const;
  std::string column_text(int column) const;
  std::string column_blob(int column) const;

  const std::string& sql() const { return sql_; }

 private:
  friend class StatementUse;
  friend class SqliteDb;

  Status bind_result(int rc, int index);

  sqlite3* db_;
  sqlite3_stmt* stmt_;
  std::string sql_;
  int last_error_code_ = 0;
  // Set while a StatementUse holds it: a second borrow would reset the first mid-use.
  bool borrowed_ = false;
};

// A cached statement borrowed for one use: reset (which also ends any read it holds open)
// and cleared when the borrow ends, so the next user starts clean.
class StatementUse {
 public:
  explicit StatementUse(SqliteStatement* stmt) : stmt_(stmt) { stmt_->borrowed_ = true; }
  ~StatementUse() {
    if (stmt_ == nullptr) return;
    stmt_->reset();
    stmt_->borrowed_ = false;
  }
  StatementUse(StatementUse&& o) noexcept : stmt_(o.stmt_) { o.stmt_ = nullptr; }
  StatementUse& operator=(StatementUse&&) = delete;
  StatementUse(const StatementUse&) = delete;
  StatementUse& operator=(const StatementUse&) = delete;

  SqliteStatement* operator->() const { return stmt_; }
  SqliteStatement& operator*() const { return *stmt_; }

 private:
  SqliteStatement* stmt_;
};

class SqliteDb {
 public:
  // Opens or creates the file read-write. SQLite reads lazily, so a file that is not a
  // database is only detected by the first statement; callers should run one at once.
  static Result<std::unique_ptr<SqliteDb>> open(const std::string& path);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // Runs SQL text with no parameters (pragmas, DDL, BEGIN/COMMIT). `operation` names what
  // the caller was doing, for the error message.
  Status exec(std::string_view sql, std::string_view operation);

  // The prepared statement for this SQL text, prepared on first use and kept: the hot path
  // (thousands of inserts per loop turn) must not re-parse SQL. Borrowing the same SQL
  // again while a borrow is alive is a programming error (asserted).
  Result<StatementUse> prepare_cached(std::string_view sql);

  // False while a transaction is open (SQLite's autocommit flag).
  bool in_autocommit() const;
  // Rows changed by the last INSERT, UPDATE or DELETE.
  std::int64_t changes() const;
  std::string error_message() const;
  const std::string& path() const { return path_; }

 private:
  SqliteDb(sqlite3* db, std::string path);

  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };

  sqlite3* db_;
  std::string path_;
  // Destroyed before db_ is closed (see the destructor): finalize before close.
  std::unordered_map<std::string, std::unique_ptr<SqliteStatement>, StringHash, std::equal_to<>> statements_;
};

}  // namespace fairway::daemon
