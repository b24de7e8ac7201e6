#include "coordinator/daemon/job_store.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <limits>
#include <system_error>
#include <utility>

#include "coordinator/daemon/allocation_codec.h"
#include "coordinator/daemon/job_row.h"
#include "shared/base/private_files.h"
#include "shared/base/try.h"

namespace fairway::daemon {
namespace {

constexpr std::uint64_t kMaxJobId = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

// The terminal states as an SQL list, from the state machine itself so the two agree.
const std::string& terminal_states_sql() {
  static const std::string states = [] {
    std::string list;
    for (int i = 0; i <= static_cast<int>(kLastJobState); ++i) {
      auto s = static_cast<JobState>(i);
      if (!is_terminal(s)) continue;
      if (!list.empty()) list += ", ";
      list += "'" + std::string(to_string(s)) + "'";
    }
    return list;
  }();
  return states;
}

const std::string& purge_sql() {
  static const std::string sql = [] {
    const std::string& states = terminal_states_sql();
    // A bounded batch in end-time order (the end-time index), so that a first purge of a
    // store holding years of jobs is many short transactions, not one that stalls the loop.
    // RETURNING the columns of kSelectJobs, in its order, so that read_job_row reads them.
    return "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE end_time IS NOT NULL AND end_time < ?1 "
           "AND state IN (" +
           states + ") ORDER BY end_time LIMIT ?2) RETURNING " +
           std::string(kSelectJobs.substr(7, kSelectJobs.find(" FROM ") - 7));
  }();
  return sql;
}

// Checks what the schema cannot, and encodes the allocation.
Result<std::string> validate_job(const StoredJob& job, std::string_view operation) {
  // Built only on failure: this runs for every job of a busy turn.
  auto where = [&] { return std::string(operation) + ": " + job_name(job.id); };
  if (job.id.value() == 0 || job.id.value() > kMaxJobId) {
    return invalid_argument(where() + ": id " + std::to_string(job.id.value()) + " is out of range 1.." +
                            std::to_string(kMaxJobId));
  }
  if (job.requeue_count < 0) {
    return invalid_argument(where() + ": requeue_count " + std::to_string(job.requeue_count) +
                            " is negative");
  }
  auto allocation = encode_allocation(job.allocation);
  if (!allocation) return std::unexpected(allocation.error().with_context(where()));
  return allocation;
}

// SQLite takes a file of a few bytes for an empty database and overwrites it, so a
// truncated or foreign fairway.db would be replaced silently. Empty is fine: in WAL mode
// the main file stays empty until the first checkpoint.
Status check_sqlite_header(const std::string& path) {
  static constexpr std::string_view kHeader{"SQLite format 3\0", 16};
  std::ifstream in(path, std::ios::binary);
  if (!in) return ok_status();  // missing: SQLite creates it; unreadable: SQLite says so
  std::string head(kHeader.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.empty() || head == kHeader) return ok_status();
  return make_error(ErrorCode::kIo, "cannot open job store '" + path +
                                        "': file is not an SQLite database (its first " +
                                        std::to_string(head.size()) + " bytes are not the SQLite header)");
}

// SQLite creates a new database 0644 less the umask, and its -wal and -shm files with the
// database's mode: made here first, 0600, all three are private to the coordinator's user
// whatever the umask (an empty file is a valid new database).
Status create_private_store_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return ok_status();
    return make_error(ErrorCode::kIo, "cannot create job store '" + path + "': " + std::strerror(errno));
  }
  const bool chmodded = ::fchmod(fd, 0600) == 0;
  const int err = errno;
  ::close(fd);
  if (!chmodded)
    return make_error(ErrorCode::kIo, "cannot chmod 0600 job store '" + path + "': " + std::strerror(err));
  return ok_status();
}

}  // namespace

JobStore::JobStore(std::unique_ptr<SqliteDb> db, std::uint64_t next_job_id)
    : db_(std::move(db)), next_job_id_(next_job_id) {}

JobStore::~JobStore() {
  rollback();
}

Result<std::unique_ptr<JobStore>> JobStore::open(const std::string& state_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // 0700 whatever the umask: the store holds every job's script and environment.
  if (auto made = make_private_dir(state_dir); !made) {
    return make_error(ErrorCode::kIo,
                      "cannot create state directory '" + state_dir + "': " + made.error().message);
  }
  if (!fs::is_directory(state_dir, ec)) {
    return make_error(ErrorCode::kIo, "state directory '" + state_dir + "' is not a directory");
  }
  std::string path = (fs::path(state_dir) / kFileName).string();
  FAIRWAY_TRY(create_private_store_file(path));
  FAIRWAY_TRY(check_sqlite_header(path));
  FAIRWAY_TRY_ASSIGN(db, SqliteDb::open(path));

  std::string context = "cannot open job store '" + path + "'";
  {
    // The first statement to read the file: this is where a non-database file shows.
    auto mode = (db)->prepare_cached("PRAGMA journal_mode = WAL");
    if (!mode) return std::unexpected(mode.error().with_context(context));
    auto row = (*mode)->step();
    if (!row) return std::unexpected(row.error().with_context(context));
    std::string journal = *row ? (*mode)->column_text(0) : std::string();
    if (journal != "wal") {
      return make_error(ErrorCode::kIo, context + ": journal_mode is '" + journal +
                                            "', not 'wal' (does the filesystem support WAL?)");
    }
  }
  // FULL: in WAL mode NORMAL may lose the last commits on power loss, and those were
  // acknowledged. A busy timeout rides over an admin's sqlite3 shell briefly holding a lock.
  for (std::string_view pragma : {"PRAGMA synchronous = FULL", "PRAGMA busy_timeout = 2000"}) {
    if (auto s = (db)->exec(pragma, pragma); !s) {
      return std::unexpected(s.error().with_context(context));
    }
  }
  if (auto s = ensure_job_store_schema(*db); !s) {
    return std::unexpected(s.error().with_context(context));
  }
  auto next_id = read_next_job_id(*db);
  if (!next_id) return std::unexpected(next_id.error().with_context(context));
  return std::unique_ptr<JobStore>(new JobStore(std::move(db), *next_id));
}

Status JobStore::begin() {
  if (in_transaction_) {
    return make_error(ErrorCode::kFailedPrecondition, "begin: a transaction is already open");
  }
  FAIRWAY_TRY(injected_failure("begin"));
  // IMMEDIATE takes the write lock now, so a conflict shows here and not at commit.
  FAIRWAY_TRY(db_->exec("BEGIN IMMEDIATE", "begin"));
  in_transaction_ = true;
  return ok_status();
}

Status JobStore::commit() {
  if (!in_transaction_) {
    return make_error(ErrorCode::kFailedPrecondition, "commit: no transaction is open");
  }
  if (db_->in_autocommit()) {
    // SQLite rolls a whole transaction back on some errors (disk full, I/O error).
    in_transaction_ = false;
    return make_error(ErrorCode::kIo, "commit on '" + db_->path() +
                                          "': SQLite rolled the transaction back after an earlier error; "
                                          "nothing written since begin() was stored");
  }
  FAIRWAY_TRY(injected_failure("commit"));
  if (fail_next_commit_) {
    fail_next_commit_ = false;
    return make_error(ErrorCode::kIo, "commit on '" + db_->path() + "': injected failure (test)");
  }
  if (job_id_counter_dirty_) {
    FAIRWAY_TRY(persist_job_id_counter());
  }
  FAIRWAY_TRY(db_->exec("COMMIT", "commit"));
  in_transaction_ = false;
  return ok_status();
}

void JobStore::rollback() {
  // The id counter is left as it is (and left dirty): skipping ids is harmless.
  if (!db_->in_autocommit()) (void)db_->exec("ROLLBACK", "rollback");
  in_transaction_ = false;
}

Status JobStore::injected_failure(std::string_view operation) {
  if (fail_operation_in_ == 0 || --fail_operation_in_ > 0) return ok_status();
  return make_error(ErrorCode::kIo,
                    std::string(operation) + " on '" + db_->path() + "': injected failure (test)");
}

Status JobStore::persist_job_id_counter() {
  if (auto s = write_meta(*db_, kMetaNextJobId, std::to_string(next_job_id_)); !s) {
    return std::unexpected(s.error().with_context("persist the job id counter"));
  }
  job_id_counter_dirty_ = false;
  return ok_status();
}

Result<JobId> JobStore::allocate_job_id(std::uint64_t count) {
  if (count == 0 || next_job_id_ > kMaxJobId || kMaxJobId - next_job_id_ < count - 1) {
    return make_error(ErrorCode::kResourceExhausted, "allocate_job_id: job ids are exhausted");
  }
  JobId id(next_job_id_);
  next_job_id_ += count;
  job_id_counter_dirty_ = true;
  if (!in_transaction_) {
    FAIRWAY_TRY(persist_job_id_counter());
  }
  return id;
}

void JobStore::raise_next_job_id(std::uint64_t first) {
  if (first <= next_job_id_) return;
  next_job_id_ = first;
  job_id_counter_dirty_ = true;
}

void JobStore::return_job_id(JobId id, std::uint64_t count) {
  if (id.value() + count != next_job_id_) return;
  next_job_id_ -= count;
  job_id_counter_dirty_ = true;
}

Status JobStore::insert_job(const StoredJob& job) {
  FAIRWAY_TRY(injected_failure("insert_job"));
  FAIRWAY_TRY_ASSIGN(allocation, validate_job(job, "insert_job"));
  if (job.user.empty()) {
    return invalid_argument("insert_job: " + job_name(job.id) + ": user is empty");
  }
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kInsertJob));
  if (auto s = bind_job_insert(*stmt, job, allocation); !s) {
    return std::unexpected(s.error().with_context("insert_job: " + job_name(job.id)));
  }
  auto done = (stmt)->step();
  if (done) return ok_status();
  if (done.error().code == ErrorCode::kAlreadyExists) {
    if ((stmt)->last_error_code() == SQLITE_CONSTRAINT_PRIMARYKEY) {
      return make_error(ErrorCode::kAlreadyExists, "insert_job: " + job_name(job.id) + " already exists");
    }
    return make_error(ErrorCode::kAlreadyExists, "insert_job: " + job_name(job.id) + ": user '" + job.user +
                                                     "' already has a job with client_token '" +
                                                     job.client_token + "'");
  }
  return std::unexpected(done.error().with_context("insert_job: " + job_name(job.id)));
}

Result<std::optional<JobId>> JobStore::find_by_token(const std::string& user, const std::string& token) {
  if (token.empty()) return std::optional<JobId>();
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached("SELECT id FROM jobs WHERE user = ?1 AND client_token = ?2"));
  Status s = (stmt)->bind_text(1, user);
  if (s) s = (stmt)->bind_text(2, token);
  if (!s) return std::unexpected(s.error().with_context("find_by_token"));
  auto row = (stmt)->step();
  if (!row) return std::unexpected(row.error().with_context("find_by_token"));
  if (!*row) return std::optional<JobId>();
  return std::optional<JobId>(JobId(static_cast<std::uint64_t>((stmt)->column_int64(0))));
}

Result<std::string> JobStore::load_request(JobId id) const {
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached("SELECT request FROM jobs WHERE id = ?1"));
  if (auto s = (stmt)->bind_int64(1, static_cast<std::int64_t>(id.value())); !s) {
    return std::unexpected(s.error().with_context("load_request"));
  }
  auto row = (stmt)->step();
  if (!row) return std::unexpected(row.error().with_context("load_request: " + job_name(id)));
  if (!*row) return make_error(ErrorCode::kNotFound, "load_request: " + job_name(id) + " does not exist");
  return (stmt)->column_blob(0);
}

Status JobStore::update_job(const StoredJob& job) {
  FAIRWAY_TRY(injected_failure("update_job"));
  FAIRWAY_TRY_ASSIGN(allocation, validate_job(job, "update_job"));
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kUpdateJob));
  if (auto s = bind_job_update(*stmt, job, allocation); !s) {
    return std::unexpected(s.error().with_context("update_job: " + job_name(job.id)));
  }
  auto done = (stmt)->step();
  if (!done) return std::unexpected(done.error().with_context("update_job: " + job_name(job.id)));
  if (db_->changes() == 0) {
    return make_error(ErrorCode::kNotFound, "update_job: " + job_name(job.id) + " does not exist");
  }
  return ok_status();
}

Status JobStore::update_request(JobId id, const std::string& request) {
  FAIRWAY_TRY(injected_failure("update_request"));
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached("UPDATE jobs SET request = ?2 WHERE id = ?1"));
  Status s = (stmt)->bind_int64(1, static_cast<std::int64_t>(id.value()));
  if (s) s = (stmt)->bind_blob(2, request);
  if (!s) return std::unexpected(s.error().with_context("update_request: " + job_name(id)));
  auto done = (stmt)->step();
  if (!done) return std::unexpected(done.error().with_context("update_request: " + job_name(id)));
  if (db_->changes() == 0) {
    return make_error(ErrorCode::kNotFound, "update_request: " + job_name(id) + " does not exist");
  }
  return ok_status();
}

namespace {

// Every row a kSelectJobs-shaped statement yields; errors name `what`.
Result<std::vector<StoredJob>> read_job_rows(SqliteStatement& stmt, const char* what) {
  std::vector<StoredJob> jobs;
  while (true) {
    auto row = stmt.step();
    if (!row) return std::unexpected(row.error().with_context(what));
    if (!*row) break;
    FAIRWAY_TRY_ASSIGN(job, read_job_row(stmt));
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace

Result<std::vector<StoredJob>> JobStore::load_jobs() const {
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kSelectJobs));
  return read_job_rows(*stmt, "load_jobs");
}

Result<std::int64_t> JobStore::count_finished_jobs() const {
  static const std::string sql = "SELECT count(*) FROM jobs WHERE state IN (" + terminal_states_sql() + ")";
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(sql));
  FAIRWAY_TRY_ASSIGN(row, (stmt)->step());
  if (!row) return make_error(ErrorCode::kInternal, "count_finished_jobs: no row");
  return (stmt)->column_int64(0);
}

Status JobStore::scan_jobs(const std::function<Status(StoredJob&&)>& fn) const {
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kSelectJobs));
  for (;;) {
    auto row = (stmt)->step();
    if (!row) return std::unexpected(row.error().with_context("scan_jobs"));
    if (!*row) return ok_status();
    auto job = read_job_row(*stmt);
    if (!job) return std::unexpected(job.error().with_context("scan_jobs"));
    FAIRWAY_TRY(fn(std::move(*job)));
  }
}

Result<std::vector<StoredJob>> JobStore::load_finished(JobId after, std::size_t limit,
                                                       const std::string& user, std::optional<Time> from,
                                                       std::optional<Time> to) const {
  // One statement per combination of filters (four, each cached), so that SQLite can use
  // the user index or the end-time index; "x IS NULL OR" forms defeat both.
  std::string sql = std::string(kSelectJobs.substr(0, kSelectJobs.find(" ORDER BY"))) +
                    " WHERE end_time IS NOT NULL AND id > ?1";
  if (!user.empty()) sql += " AND user = ?2";
  if (from || to) sql += " AND end_time >= ?3 AND end_time < ?4";
  sql += " ORDER BY id LIMIT ?5";
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(sql));
  Status s = (stmt)->bind_int64(1, static_cast<std::int64_t>(after.value()));
  if (s && !user.empty()) s = (stmt)->bind_text(2, user);
  if (s && (from || to)) {
    s = (stmt)->bind_int64(3, from ? from->seconds() : std::numeric_limits<std::int64_t>::min());
    if (s) s = (stmt)->bind_int64(4, to ? to->seconds() : std::numeric_limits<std::int64_t>::max());
  }
  if (s) s = (stmt)->bind_int64(5, static_cast<std::int64_t>(std::min<std::size_t>(limit, 1u << 20)));
  FAIRWAY_TRY(s);
  return read_job_rows(*stmt, "load_finished");
}

Result<std::int64_t> JobStore::purge_finished_before(Time t, std::int64_t limit,
                                                     std::vector<StoredJob>* purged_rows) {
  FAIRWAY_TRY(injected_failure("purge_finished_before"));
  if (limit < 1)
    return invalid_argument("purge_finished_before: limit must be >= 1, got " + std::to_string(limit));
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(purge_sql()));
  FAIRWAY_TRY((stmt)->bind_int64(1, t.seconds()));
  FAIRWAY_TRY((stmt)->bind_int64(2, limit));
  std::int64_t purged = 0;
  for (;;) {
    auto row = (stmt)->step();
    if (!row) return std::unexpected(row.error().with_context("purge_finished_before"));
    if (!*row) break;
    ++purged;
    if (purged_rows == nullptr) continue;
    auto job = read_job_row(*stmt);
    if (!job) return std::unexpected(job.error().with_context("purge_finished_before"));
    purged_rows->push_back(std::move(*job));
  }
  if (purged > 0) FAIRWAY_TRY(purge_orphan_steps());
  return purged;
}

Status JobStore::set_node_admin_state(const NodeAdminState& state) {
  FAIRWAY_TRY(injected_failure("set_node_admin_state"));
  if (state.node.empty()) return invalid_argument("set_node_admin_state: node name is empty");
  auto stmt = db_->prepare_cached(
      "INSERT INTO node_admin (node, drained, reason, by_user, by_uid, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
      "ON CONFLICT (node) DO UPDATE SET drained = excluded.drained, reason = excluded.reason, "
      "by_user = excluded.by_user, by_uid = excluded.by_uid, at = excluded.at");
  if (!stmt) return std::unexpected(stmt.error());
  Status s = (*stmt)->bind_text(1, state.node);
  if (s) s = (*stmt)->bind_int64(2, state.drained ? 1 : 0);
  if (s) s = (*stmt)->bind_text(3, state.reason);
  if (s) s = (*stmt)->bind_text(4, state.by_user);
  if (s) s = state.by_uid ? (*stmt)->bind_int64(5, *state.by_uid) : (*stmt)->bind_null(5);
  if (s) s = state.at ? (*stmt)->bind_int64(6, state.at->seconds()) : (*stmt)->bind_null(6);
  auto done = s ? (*stmt)->step() : Result<bool>(std::unexpected(s.error()));
  if (!done) {
    return std::unexpected(done.error().with_context("set_node_admin_state: node '" + state.node + "'"));
  }
  return ok_status();
}

Result<std::vector<NodeAdminState>> JobStore::load_node_admin_states() const {
  FAIRWAY_TRY_ASSIGN(
      stmt,
      db_->prepare_cached("SELECT node, drained, reason, by_user, by_uid, at FROM node_admin ORDER BY node"));
  std::vector<NodeAdminState> states;
  while (true) {
    auto row = (stmt)->step();
    if (!row) return std::unexpected(row.error().with_context("load_node_admin_states"));
    if (!*row) break;
    // Types are checked before any read: reading converts the value and the type with it.
    const bool node_is_text = (stmt)->column_type(0) == SQLITE_TEXT;
    const bool drained_is_integer = (stmt)->column_type(1) == SQLITE_INTEGER;
    const bool reason_is_text = (stmt)->column_type(2) == SQLITE_TEXT;
    const bool by_user_is_text = (stmt)->column_type(3) == SQLITE_TEXT;
    const int by_uid_type = (stmt)->column_type(4);
    const int at_type = (stmt)->column_type(5);
    NodeAdminState state;
    state.node = (stmt)->column_text(0);
    auto corrupt = [&](const std::string& what) {
      return make_error(ErrorCode::kIo, "load_node_admin_states: node '" + state.node + "': column " + what);
    };
    if (!node_is_text) return corrupt("node: not text");
    if (!reason_is_text) return corrupt("reason: not text");
    std::int64_t drained = drained_is_integer ? (stmt)->column_int64(1) : -1;
    if (drained != 0 && drained != 1) return corrupt("drained: not 0 or 1");
    state.drained = drained == 1;
    state.reason = (stmt)->column_text(2);
    if (!by_user_is_text) return corrupt("by_user: not text");
    state.by_user = (stmt)->column_text(3);
    if (by_uid_type != SQLITE_NULL) {
      const std::int64_t uid = by_uid_type == SQLITE_INTEGER ? (stmt)->column_int64(4) : -1;
      if (uid < 0 || uid > 0xffffffffLL) return corrupt("by_uid: not a uid");
      state.by_uid = static_cast<std::uint32_t>(uid);
    }
    if (at_type != SQLITE_NULL) {
      if (at_type != SQLITE_INTEGER) return corrupt("at: not an integer");
      state.at = Time::from_seconds((stmt)->column_int64(5));
    }
    states.push_back(std::move(state));
  }
  return states;
}

Result<std::optional<std::string>> JobStore::get_meta(const std::string& key) const {
  auto value = read_meta(*db_, key);
  if (!value) return std::unexpected(value.error().with_context("get_meta '" + key + "'"));
  return value;
}

Result<std::vector<std::pair<std::string, std::string>>> JobStore::load_meta_prefix(
    const std::string& prefix) const {
  FAIRWAY_TRY_ASSIGN(
      stmt, db_->prepare_cached("SELECT key, value FROM meta WHERE substr(key, 1, ?2) = ?1 ORDER BY key"));
  Status s = (stmt)->bind_text(1, prefix);
  if (s) s = (stmt)->bind_int64(2, static_cast<std::int64_t>(prefix.size()));
  FAIRWAY_TRY(s);
  std::vector<std::pair<std::string, std::string>> out;
  while (true) {
    auto row = (stmt)->step();
    if (!row) return std::unexpected(row.error().with_context("load_meta_prefix '" + prefix + "'"));
    if (!*row) break;
    out.emplace_back((stmt)->column_text(0), (stmt)->column_text(1));
  }
  return out;
}

Status JobStore::set_meta(const std::string& key, const std::string& value) {
  FAIRWAY_TRY(injected_failure("set_meta"));
  if (key.empty()) return invalid_argument("set_meta: key is empty");
  if (is_reserved_meta_key(key)) {
    return invalid_argument("set_meta: key '" + key + "' is reserved for the job store itself");
  }
  if (auto s = write_meta(*db_, key, value); !s) {
    return std::unexpected(s.error().with_context("set_meta '" + key + "'"));
  }
  return ok_status();
}

}  // namespace fairway::daemon
