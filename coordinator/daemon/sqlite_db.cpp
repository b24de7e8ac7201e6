#include "coordinator/daemon/sqlite_db.h"

#include <sqlite3.h>

#include <cassert>
#include <utility>

namespace fairway::daemon {
namespace {

std::string message_of(sqlite3* db, int rc) {
  // sqlite3_errmsg can lag behind for codes not produced by the last API call on db.
  const char* m = db != nullptr ? sqlite3_errmsg(db) : nullptr;
  std::string text = m != nullptr ? m : sqlite3_errstr(rc);
  return text + " (sqlite code " + std::to_string(rc) + ")";
}

ErrorCode error_code_for(int extended_rc) {
  if (extended_rc == SQLITE_CONSTRAINT_PRIMARYKEY || extended_rc == SQLITE_CONSTRAINT_UNIQUE) {
    return ErrorCode::kAlreadyExists;
  }
  return ErrorCode::kIo;
}

}  // namespace

SqliteStatement::SqliteStatement(sqlite3* db, sqlite3_stmt* stmt, std::string sql)
    : db_(db), stmt_(stmt), sql_(std::move(sql)) {}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(stmt_);
}

Status SqliteStatement::bind_result(int rc, int index) {
  if (rc == SQLITE_OK) return ok_status();
  return make_error(ErrorCode::kIo, "sqlite bind of parameter " + std::to_string(index) + " in '" + sql_ +
                                        "': " + message_of(db_, rc));
}

Status SqliteStatement::bind_int64(int index, std::int64_t value) {
  return bind_result(sqlite3_bind_int64(stmt_, index, value), index);
}

Status SqliteStatement::bind_text(int index, std::string_view value) {
  // A null pointer would bind NULL, and an empty string_view may carry one.
  const char* data = value.data() != nullptr ? value.data() : "";
  return bind_result(sqlite3_bind_text64(stmt_, index, data, value.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
                     index);
}

Status SqliteStatement::bind_blob(int index, std::string_view bytes) {
  // A null pointer would bind NULL; an empty request is still a (zero-length) blob.
  static const char kEmpty = 0;
  const char* data = bytes.empty() ? &kEmpty : bytes.data();
  return bind_result(sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_TRANSIENT), index);
}

Status SqliteStatement::bind_null(int index) {
  return bind_result(sqlite3_bind_null(stmt_, index), index);
}

Result<bool> SqliteStatement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  last_error_code_ = sqlite3_extended_errcode(db_);
  return make_error(error_code_for(last_error_code_),
                    "sqlite step of '" + sql_ + "': " + message_of(db_, last_error_code_));
}

void SqliteStatement::reset() {
  // reset() repeats the last step's error code; that error was already reported by step().
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int SqliteStatement::column_type(int column) const {
  return sqlite3_column_type(stmt_, column);
}

std::int64_t SqliteStatement::column_int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

std::string SqliteStatement::column_text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  int size = sqlite3_column_bytes(stmt_, column);
  if (text == nullptr || size <= 0) return {};
  return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(size));
}

std::string SqliteStatement::column_blob(int column) const {
  const void* blob = sqlite3_column_blob(stmt_, column);
  int size = sqlite3_column_bytes(stmt_, column);
  if (blob == nullptr || size <= 0) return {};
  return std::string(static_cast<const char*>(blob), static_cast<std::size_t>(size));
}

SqliteDb::SqliteDb(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

SqliteDb::~SqliteDb() {
  statements_.clear();
  // Closing with a transaction open rolls it back: an uncommitted turn leaves nothing.
  sqlite3_close_v2(db_);
}

Result<std::unique_ptr<SqliteDb>> SqliteDb::open(const std::string& path) {
  sqlite3* db = nullptr;
  // NOMUTEX: the owner is a single thread (the event loop), so SQLite's locks are waste.
  int rc = sqlite3_open_v2(path.c_str(), &db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = message_of(db, rc);
    sqlite3_close_v2(db);  // a handle is allocated even when the open fails
    return make_error(ErrorCode::kIo, "cannot open database '" + path + "': " + message);
  }
  sqlite3_extended_result_codes(db, 1);
  return std::unique_ptr<SqliteDb>(new SqliteDb(db, path));
}

Status SqliteDb::exec(std::string_view sql, std::string_view operation) {
  std::string text(sql);
  char* raw_message = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &raw_message);
  if (rc == SQLITE_OK) return ok_status();
  std::string message = raw_message != nullptr ? raw_message : sqlite3_errstr(rc);
  sqlite3_free(raw_message);
  return make_error(error_code_for(sqlite3_extended_errcode(db_)),
                    std::string(operation) + " on '" + path_ + "': " + message + " (sqlite code " +
                        std::to_string(sqlite3_extended_errcode(db_)) + ")");
}

Result<StatementUse> SqliteDb::prepare_cached(std::string_view sql) {
  auto it = statements_.find(sql);
  if (it == statements_.end()) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                &stmt, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(stmt);
      return make_error(ErrorCode::kIo, "sqlite prepare of '" + std::string(sql) + "' on '" + path_ +
                                            "': " + message_of(db_, rc));
    }
    assert(stmt != nullptr && "prepare_cached needs one SQL statement, not empty text");
    auto owned = std::make_unique<SqliteStatement>(db_, stmt, std::string(sql));
    it = statements_.emplace(std::string(sql), std::move(owned)).first;
  }
  assert(!it->second->borrowed_ && "the same cached statement borrowed twice at once");
  return StatementUse(it->second.get());
}

bool SqliteDb::in_autocommit() const {
  return sqlite3_get_autocommit(db_) != 0;
}

std::int64_t SqliteDb::changes() const {
  return sqlite3_changes64(db_);
}

std::string SqliteDb::error_message() const {
  return sqlite3_errmsg(db_);
}

}  // namespace fairway::daemon
