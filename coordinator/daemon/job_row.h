// The jobs table's row layout: its SQL, the column order, and moving a StoredJob into a
// statement's bindings and back out of a result row. Pure functions; no state.
#pragma once

#include <string>
#include <string_view>

#include "coordinator/daemon/sqlite_db.h"
#include "coordinator/daemon/stored_job.h"
#include "shared/base/result.h"

namespace fairway::daemon {

inline constexpr std::string_view kInsertJob =
    "INSERT INTO jobs (id, user, client_token, request, state, submit_time, start_time, "
    "end_time, allocation, exit_code, signal, reason, requeue_count, peak_memory_bytes, cpu_time_ms) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)";
inline constexpr std::string_view kUpdateJob =
    "UPDATE jobs SET state = ?5, submit_time = ?6, start_time = ?7, end_time = ?8, "
    "allocation = ?9, exit_code = ?10, signal = ?11, reason = ?12, requeue_count = ?13, "
    "peak_memory_bytes = ?14, cpu_time_ms = ?15 WHERE id = ?1";
inline constexpr std::string_view kSelectJobs =
    "SELECT id, user, client_token, request, state, submit_time, start_time, end_time, "
    "allocation, exit_code, signal, reason, requeue_count, peak_memory_bytes, cpu_time_ms "
    "FROM jobs ORDER BY id";
// Column numbers in kSelectJobs; bind indices in kInsertJob/kUpdateJob are these plus one.
enum JobColumn : int {
  kId,
  kUser,
  kClientToken,
  kRequest,
  kState,
  kSubmitTime,
  kStartTime,
  kEndTime,
  kAllocation,
  kExitCode,
  kSignal,
  kReason,
  kRequeueCount,
  kPeakMemory,
  kCpuTime,
};

// "job 42", for error messages.
std::string job_name(JobId id);

// Binds every column of kInsertJob. An empty client_token is bound as NULL (no dedup).
Status bind_job_insert(SqliteStatement& stmt, const StoredJob& job, const std::string& allocation_text);
// Binds the id and the columns kUpdateJob changes (all but user, token and request).
Status bind_job_update(SqliteStatement& stmt, const StoredJob& job, const std::string& allocation_text);

// The current row of a kSelectJobs statement. Every column is checked, since the file may
// have been damaged or edited by hand: a bad one is kIo naming the job id and the column.
Result<StoredJob> read_job_row(const SqliteStatement& stmt);

}  // namespace fairway::daemon
