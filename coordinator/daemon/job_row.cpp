#include "coordinator/daemon/job_row.h"

#include <sqlite3.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "coordinator/daemon/allocation_codec.h"
#include "shared/base/try.h"

namespace fairway::daemon {
namespace {

Status bind_optional(SqliteStatement& stmt, int index, std::optional<std::int64_t> value) {
  return value ? stmt.bind_int64(index, *value) : stmt.bind_null(index);
}

std::optional<std::int64_t> seconds_of(const std::optional<Time>& t) {
  if (!t) return std::nullopt;
  return t->seconds();
}

// Binds the columns that update_job may change (state .. requeue_count).
Status bind_mutable_columns(SqliteStatement& stmt, const StoredJob& job, const std::string& allocation_text) {
  Status s = stmt.bind_text(kState + 1, to_string(job.state));
  if (s) s = stmt.bind_int64(kSubmitTime + 1, job.submit_time.seconds());
  if (s) s = bind_optional(stmt, kStartTime + 1, seconds_of(job.start_time));
  if (s) s = bind_optional(stmt, kEndTime + 1, seconds_of(job.end_time));
  if (s) s = stmt.bind_text(kAllocation + 1, allocation_text);
  if (s) s = bind_optional(stmt, kExitCode + 1, job.exit_code);
  if (s) s = bind_optional(stmt, kSignal + 1, job.signal);
  if (s) s = stmt.bind_text(kReason + 1, job.reason);
  if (s) s = stmt.bind_int64(kRequeueCount + 1, job.requeue_count);
  if (s) s = bind_optional(stmt, kPeakMemory + 1, job.peak_memory_bytes);
  if (s) s = bind_optional(stmt, kCpuTime + 1, job.cpu_time_ms);
  return s;
}

class JobRowReader {
 public:
  JobRowReader(const SqliteStatement& stmt, JobId id) : stmt_(stmt), id_(id) {}

  std::unexpected<Error> corrupt(std::string_view column, const std::string& what) const {
    return make_error(ErrorCode::kIo,
                      "load_jobs: " + job_name(id_) + ": column " + std::string(column) + ": " + what);
  }

  Result<std::int64_t> integer(int column, std::string_view name, std::int64_t lo, std::int64_t hi) const {
    if (stmt_.column_type(column) != SQLITE_INTEGER) return corrupt(name, "not an integer");
    std::int64_t v = stmt_.column_int64(column);
    if (v < lo || v > hi) return corrupt(name, std::to_string(v) + " is out of range");
    return v;
  }

  Result<std::optional<std::int64_t>> optional_integer(int column, std::string_view name, std::int64_t lo,
                                                       std::int64_t hi) const {
    if (stmt_.column_type(column) == SQLITE_NULL) return std::optional<std::int64_t>();
    FAIRWAY_TRY_ASSIGN(v, integer(column, name, lo, hi));
    return std::optional<std::int64_t>(v);
  }

  Result<std::string> text(int column, std::string_view name, bool null_is_empty) const {
    int type = stmt_.column_type(column);
    if (type == SQLITE_NULL && null_is_empty) return std::string();
    if (type != SQLITE_TEXT) return corrupt(name, "not text");
    return stmt_.column_text(column);
  }

  Result<std::string> blob(int column, std::string_view name) const {
    if (stmt_.column_type(column) != SQLITE_BLOB) return corrupt(name, "not a blob");
    return stmt_.column_blob(column);
  }

 private:
  const SqliteStatement& stmt_;
  JobId id_;
};

constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt32Min = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

}  // namespace

Result<StoredJob> read_job_row(const SqliteStatement& stmt) {
  if (stmt.column_type(kId) != SQLITE_INTEGER || stmt.column_int64(kId) <= 0) {
    return make_error(ErrorCode::kIo,
                      "load_jobs: a row has a bad id '" + stmt.column_text(kId) + "' (column id)");
  }
  StoredJob job;
  job.id = JobId(static_cast<std::uint64_t>(stmt.column_int64(kId)));
  JobRowReader r(stmt, job.id);
  FAIRWAY_TRY_ASSIGN(user, r.text(kUser, "user", false));
  FAIRWAY_TRY_ASSIGN(token, r.text(kClientToken, "client_token", true));
  FAIRWAY_TRY_ASSIGN(request, r.blob(kRequest, "request"));
  FAIRWAY_TRY_ASSIGN(state_name, r.text(kState, "state", false));
  FAIRWAY_TRY_ASSIGN(submit, r.integer(kSubmitTime, "submit_time", kInt64Min, kInt64Max));
  FAIRWAY_TRY_ASSIGN(start, r.optional_integer(kStartTime, "start_time", kInt64Min, kInt64Max));
  FAIRWAY_TRY_ASSIGN(end, r.optional_integer(kEndTime, "end_time", kInt64Min, kInt64Max));
  FAIRWAY_TRY_ASSIGN(allocation_text, r.text(kAllocation, "allocation", false));
  FAIRWAY_TRY_ASSIGN(exit_code, r.optional_integer(kExitCode, "exit_code", kInt32Min, kInt32Max));
  FAIRWAY_TRY_ASSIGN(signal, r.optional_integer(kSignal, "signal", kInt32Min, kInt32Max));
  FAIRWAY_TRY_ASSIGN(reason, r.text(kReason, "reason", false));
  FAIRWAY_TRY_ASSIGN(requeues, r.integer(kRequeueCount, "requeue_count", 0, kInt32Max));
  FAIRWAY_TRY_ASSIGN(peak, r.optional_integer(kPeakMemory, "peak_memory_bytes", 0, kInt64Max));
  FAIRWAY_TRY_ASSIGN(cpu, r.optional_integer(kCpuTime, "cpu_time_ms", 0, kInt64Max));

  auto state = job_state_from_string(state_name);
  if (!state) return r.corrupt("state", "unknown job state '" + state_name + "'");
  auto allocation = decode_allocation(allocation_text);
  if (!allocation) return r.corrupt("allocation", allocation.error().message);

  job.user = std::move(user);
  job.client_token = std::move(token);
  job.request = std::move(request);
  job.state = *state;
  job.submit_time = Time::from_seconds(submit);
  if (start) job.start_time = Time::from_seconds(*start);
  if (end) job.end_time = Time::from_seconds(*end);
  job.allocation = std::move(*allocation);
  if (exit_code) job.exit_code = static_cast<std::int32_t>(*exit_code);
  if (signal) job.signal = static_cast<std::int32_t>(*signal);
  job.reason = std::move(reason);
  job.requeue_count = static_cast<std::int32_t>(requeues);
  job.peak_memory_bytes = peak;
  job.cpu_time_ms = cpu;
  return job;
}

std::string job_name(JobId id) {
  return "job " + std::to_string(id.value());
}

Status bind_job_insert(SqliteStatement& stmt, const StoredJob& job, const std::string& allocation_text) {
  Status s = stmt.bind_int64(kId + 1, static_cast<std::int64_t>(job.id.value()));
  if (s) s = stmt.bind_text(kUser + 1, job.user);
  if (s)
    s = job.client_token.empty() ? stmt.bind_null(kClientToken + 1)
                                 : stmt.bind_text(kClientToken + 1, job.client_token);
  if (s) s = stmt.bind_blob(kRequest + 1, job.request);
  if (s) s = bind_mutable_columns(stmt, job, allocation_text);
  return s;
}

Status bind_job_update(SqliteStatement& stmt, const StoredJob& job, const std::string& allocation_text) {
  Status s = stmt.bind_int64(kId + 1, static_cast<std::int64_t>(job.id.value()));
  if (s) s = bind_mutable_columns(stmt, job, allocation_text);
  return s;
}

}  // namespace fairway::daemon
