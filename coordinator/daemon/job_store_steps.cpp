// JobStore: job steps (sacct's ID.N lines), one row per step in job_steps. A step's row is
// written when it starts and again when it ends, in the turn's transaction like any job
// change; rows go with their job when it is purged.
#include "coordinator/daemon/job_store.h"

#include <sqlite3.h>

#include <tuple>

#include "shared/base/try.h"

namespace fairway::daemon {
namespace {

#define FAIRWAY_STEP_COLUMNS \
  "job, step, name, ntasks, nodes, state, start_time, end_time, exit_code, signal, max_rss_kb, cpu_us"
constexpr std::string_view kPutStep =
    "INSERT INTO job_steps (" FAIRWAY_STEP_COLUMNS
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) "
    "ON CONFLICT (job, step) DO UPDATE SET name = excluded.name, ntasks = excluded.ntasks, "
    "nodes = excluded.nodes, state = excluded.state, start_time = excluded.start_time, "
    "end_time = excluded.end_time, exit_code = excluded.exit_code, signal = excluded.signal, "
    "max_rss_kb = excluded.max_rss_kb, cpu_us = excluded.cpu_us";
constexpr std::string_view kLoadSteps =
    "SELECT " FAIRWAY_STEP_COLUMNS " FROM job_steps WHERE job >= ?1 AND job <= ?2 ORDER BY job, step";
constexpr std::string_view kLoadOpenSteps =
    "SELECT " FAIRWAY_STEP_COLUMNS " FROM job_steps WHERE end_time IS NULL ORDER BY job, step";
#undef FAIRWAY_STEP_COLUMNS
constexpr std::string_view kNextStepNumbers =
    "SELECT job, max(step) + 1 FROM job_steps WHERE job IN (SELECT id FROM jobs WHERE end_time IS NULL) "
    "GROUP BY job ORDER BY job";

// One row of the columns above; a corrupt one is an error naming the step and the column.
Result<StoredStep> read_step_row(const SqliteStatement& stmt, std::string_view operation) {
  StoredStep s;
  for (int c : {0, 1, 3, 4, 6, 8, 9}) {
    if (stmt.column_type(c) != SQLITE_INTEGER) {
      return make_error(ErrorCode::kIo, std::string(operation) + ": a step row's column " +
                                            std::to_string(c) + " is not an integer");
    }
  }
  s.job = JobId(static_cast<std::uint64_t>(stmt.column_int64(0)));
  s.step = static_cast<std::int32_t>(stmt.column_int64(1));
  const std::string where =
      std::string(operation) + ": step " + std::to_string(s.job.value()) + "." + std::to_string(s.step);
  if (stmt.column_type(2) != SQLITE_TEXT || stmt.column_type(5) != SQLITE_TEXT) {
    return make_error(ErrorCode::kIo, where + ": name or state is not text");
  }
  s.name = stmt.column_text(2);
  s.ntasks = static_cast<std::int32_t>(stmt.column_int64(3));
  s.nodes = static_cast<std::int32_t>(stmt.column_int64(4));
  const std::string state = stmt.column_text(5);
  auto parsed = job_state_from_string(state);
  if (!parsed) return make_error(ErrorCode::kIo, where + ": column state: unknown state '" + state + "'");
  s.state = *parsed;
  s.start_time = Time::from_seconds(stmt.column_int64(6));
  if (stmt.column_type(7) != SQLITE_NULL) {
    if (stmt.column_type(7) != SQLITE_INTEGER)
      return make_error(ErrorCode::kIo, where + ": column end_time: not an integer");
    s.end_time = Time::from_seconds(stmt.column_int64(7));
  }
  s.exit_code = static_cast<std::int32_t>(stmt.column_int64(8));
  s.signal = static_cast<std::int32_t>(stmt.column_int64(9));
  for (auto [column, value, name] :
       {std::tuple{10, &s.max_rss_kb, "max_rss_kb"}, std::tuple{11, &s.cpu_us, "cpu_us"}}) {
    if (stmt.column_type(column) == SQLITE_NULL) continue;
    if (stmt.column_type(column) != SQLITE_INTEGER || stmt.column_int64(column) < 0) {
      return make_error(ErrorCode::kIo, where + ": column " + name + ": not a non-negative integer");
    }
    *value = stmt.column_int64(column);
  }
  return s;
}

Result<std::vector<StoredStep>> read_steps(SqliteStatement& stmt, std::string_view operation) {
  std::vector<StoredStep> steps;
  while (true) {
    auto row = stmt.step();
    if (!row) return std::unexpected(row.error().with_context(std::string(operation)));
    if (!*row) break;
    FAIRWAY_TRY_ASSIGN(step, read_step_row(stmt, operation));
    steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace

Status JobStore::put_step(const StoredStep& step) {
  FAIRWAY_TRY(injected_failure("put_step"));
  const std::string id = std::to_string(step.job.value()) + "." + std::to_string(step.step);
  if (step.job.value() == 0) return invalid_argument("put_step: job id 0");
  if (step.step < 0 || step.ntasks < 0 || step.nodes < 0) {
    return invalid_argument("put_step: step " + id + ": negative step number or count");
  }
  if (step.name.empty()) return invalid_argument("put_step: step " + id + ": empty name");
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kPutStep));
  Status s = (stmt)->bind_int64(1, static_cast<std::int64_t>(step.job.value()));
  if (s) s = (stmt)->bind_int64(2, step.step);
  if (s) s = (stmt)->bind_text(3, step.name);
  if (s) s = (stmt)->bind_int64(4, step.ntasks);
  if (s) s = (stmt)->bind_int64(5, step.nodes);
  if (s) s = (stmt)->bind_text(6, to_string(step.state));
  if (s) s = (stmt)->bind_int64(7, step.start_time.seconds());
  if (s) s = step.end_time ? (stmt)->bind_int64(8, step.end_time->seconds()) : (stmt)->bind_null(8);
  if (s) s = (stmt)->bind_int64(9, step.exit_code);
  if (s) s = (stmt)->bind_int64(10, step.signal);
  if (s) s = step.max_rss_kb ? (stmt)->bind_int64(11, *step.max_rss_kb) : (stmt)->bind_null(11);
  if (s) s = step.cpu_us ? (stmt)->bind_int64(12, *step.cpu_us) : (stmt)->bind_null(12);
  auto done = s ? (stmt)->step() : Result<bool>(std::unexpected(s.error()));
  if (!done) return std::unexpected(done.error().with_context("put_step: step " + id));
  return ok_status();
}

Result<std::vector<StoredStep>> JobStore::load_steps(JobId first, JobId last) const {
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kLoadSteps));
  FAIRWAY_TRY((stmt)->bind_int64(1, static_cast<std::int64_t>(first.value())));
  FAIRWAY_TRY((stmt)->bind_int64(2, static_cast<std::int64_t>(last.value())));
  return read_steps(*stmt, "load_steps");
}

Result<std::vector<StoredStep>> JobStore::load_open_steps() const {
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kLoadOpenSteps));
  return read_steps(*stmt, "load_open_steps");
}

Result<std::vector<std::pair<JobId, std::int32_t>>> JobStore::load_next_step_numbers() const {
  FAIRWAY_TRY_ASSIGN(stmt, db_->prepare_cached(kNextStepNumbers));
  std::vector<std::pair<JobId, std::int32_t>> next;
  while (true) {
    auto row = (stmt)->step();
    if (!row) return std::unexpected(row.error().with_context("load_next_step_numbers"));
    if (!*row) break;
    next.emplace_back(JobId(static_cast<std::uint64_t>((stmt)->column_int64(0))),
                      static_cast<std::int32_t>((stmt)->column_int64(1)));
  }
  return next;
}

Status JobStore::purge_orphan_steps() {
  FAIRWAY_TRY_ASSIGN(
      stmt, db_->prepare_cached(
                "DELETE FROM job_steps WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.id = job_steps.job)"));
  auto done = (stmt)->step();
  if (!done)
    return std::unexpected(done.error().with_context("purge_finished_before: the purged jobs' steps"));
  return ok_status();
}

}  // namespace fairway::daemon
