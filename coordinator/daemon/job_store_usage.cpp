// JobStore: the runs of purged jobs, one row each in usage_runs, kept for fair-share until
// they no longer count (the daemon decides when: purge_usage_runs_before). Written in the
// turn's transaction that purges their jobs, so a run is never both kept and gone.
#include <sqlite3.h>

#include "coordinator/daemon/job_row.h"
#include "coordinator/daemon/job_store.h"
#include "shared/base/try.h"

namespace fairway::daemon {
namespace {

constexpr std::string_view kAddRun =
    "INSERT INTO usage_runs (job, account, user, reservation, start_time, end_time, cores, memory_mb, "
    "gpu_types) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
constexpr std::string_view kLoadRuns =
    "SELECT job, account, user, reservation, start_time, end_time, cores, memory_mb, gpu_types FROM "
    "usage_runs "
    "ORDER BY end_time, job";
constexpr std::string_view kPurgeRuns =
    "DELETE FROM usage_runs WHERE job IN (SELECT job FROM usage_runs WHERE end_time < ?1 ORDER BY end_time "
    "LIMIT ?2)";

std::string join_types(const std::vector<std::string>& types) {
  std::string out;
  for (const std::string& t : types) {
    if (!out.empty()) out += ',';
    out += t;
  }
  return out;
}

std::vector<std::string> split_types(const std::string& text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t comma = text.find(',', from);
    const std::size_t to = comma == std::string::npos ? text.size() : comma;
    out.push_back(text.substr(from, to - from));
    from = to + 1;
  }
  return out;
}

// A corrupt row is an error naming the run's job and the column.
Result<StoredUsageRun> read_run_row(const SqliteStatement& stmt) {
  const std::string where = "load_usage_runs: the run of job " + std::to_string(stmt.column_int64(0));
  for (int c : {0, 4, 5, 6, 7}) {
    if (stmt.column_type(c) != SQLITE_INTEGER) {
      return make_error(ErrorCode::kIo, where + ": column " + std::to_string(c) + " is not an integer");
    }
  }
  for (int c : {1, 2, 3, 8}) {
    if (stmt.column_type(c) != SQLITE_TEXT) {
      return make_error(ErrorCode::kIo, where + ": column " + std::to_string(c) + " is not text");
    }
  }
  StoredUsageRun run;
  run.job = JobId(static_cast<std::uint64_t>(stmt.column_int64(0)));
  run.account = stmt.column_text(1);
  run.user = stmt.column_text(2);
  run.reservation = stmt.column_text(3);
  run.start = Time::from_seconds(stmt.column_int64(4));
  run.end = Time::from_seconds(stmt.column_int64(5));
  run.cores = stmt.column_int64(6);
  run.memory_mb = stmt.column_int64(7);
  run.gpu_types = split_types(stmt.column_text(8));
  if (run.end < run.start || run.cores < 0 || run.memory_mb < 0) {
    return make_error(ErrorCode::kIo, where + ": an end before its start or a negative amount");
  }
  return run;
}

}  // namespace

Status JobStore::add_usage_run(const StoredUsageRun& run) {
  FAIRWAY_TRY(injected_failure("add_usage_run"));
  const std::string where = "add_usage_run: " + job_name(run.job);
  if (run.job.value() == 0) return invalid_argument("add_usage_run: job id 0");
  if (run.account.empty() || run.user.empty()) return invalid_argument(where + ": empty account or user");
  if (run.end < run.start) return invalid_argument(where + ": ends before it starts");
  if (run.cores < 0 || run.memory_mb < 0) return invalid_argument(where + ": negative cores or memory");
  for (const std::string& t : run.gpu_types) {
    if (t.find(',') != std::string::npos)
      return invalid_argument(where + ": GPU type '" + t + "' holds a comma");
  }
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kAddRun));
  Status s = (stmt)->bind_int64(1, static_cast<std::int64_t>(run.job.value()));
  if (s) s = (stmt)->bind_text(2, run.account);
  if (s) s = (stmt)->bind_text(3, run.user);
  if (s) s = (stmt)->bind_text(4, run.reservation);
  if (s) s = (stmt)->bind_int64(5, run.start.seconds());
  if (s) s = (stmt)->bind_int64(6, run.end.seconds());
  if (s) s = (stmt)->bind_int64(7, run.cores);
  if (s) s = (stmt)->bind_int64(8, run.memory_mb);
  if (s) s = (stmt)->bind_text(9, join_types(run.gpu_types));
  if (!s) return std::unexpected(s.error().with_context(where));
  auto done = (stmt)->step();
  if (!done) {
    if (((stmt)->last_error_code() & 0xff) == SQLITE_CONSTRAINT) {
      return make_error(ErrorCode::kAlreadyExists, where + ": already kept");
    }
    return std::unexpected(done.error().with_context(where));
  }
  return ok_status();
}

Result<std::vector<StoredUsageRun>> JobStore::load_usage_runs() const {
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kLoadRuns));
  std::vector<StoredUsageRun> runs;
  for (;;) {
    auto row = (stmt)->step();
    if (!row) return std::unexpected(row.error().with_context("load_usage_runs"));
    if (!*row) break;
    FAIRWAY_TRY_ASSIGN(run, read_run_row(*stmt));
    runs.push_back(std::move(run));
  }
  return runs;
}

Result<std::int64_t> JobStore::purge_usage_runs_before(Time t, std::int64_t limit) {
  FAIRWAY_TRY(injected_failure("purge_usage_runs_before"));
  if (limit < 1)
    return invalid_argument("purge_usage_runs_before: limit must be >= 1, got " + std::to_string(limit));
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kPurgeRuns));
  FAIRWAY_TRY((stmt)->bind_int64(1, t.seconds()));
  FAIRWAY_TRY((stmt)->bind_int64(2, limit));
  auto done = (stmt)->step();
  if (!done) return std::unexpected(done.error().with_context("purge_usage_runs_before"));
  return db_->changes();
}

}  // namespace fairway::daemon
