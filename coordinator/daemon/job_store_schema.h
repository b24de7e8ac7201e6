// The job store's SQLite schema: creating it in a fresh file, recognising it in an old one,
// and the key/value meta table. Functions over one SqliteDb; no state of their own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "coordinator/daemon/sqlite_db.h"
#include "shared/base/result.h"

namespace fairway::daemon {

// 2: jobs.peak_memory_bytes and jobs.cpu_time_ms (what the job's cgroup counted), and an
//    index by user for the accounting query.
// 6: jobs.request holds the store's own record of the request (stored_request.h), no longer
//    a wire frame.
// 7: usage_runs, what purged jobs ran, for fair-share after a restart.
// 8: the meta table's node/ records are the store's own (known_nodes.h), no longer wire
//    frames.
inline constexpr std::int64_t kJobStoreSchemaVersion = 8;
inline constexpr std::string_view kMetaSchemaVersion = "schema_version";
inline constexpr std::string_view kMetaNextJobId = "next_job_id";

// True for the keys the store manages itself and the daemon may not overwrite.
bool is_reserved_meta_key(std::string_view key);

// In a file with no tables: creates the schema at kJobStoreSchemaVersion. Otherwise checks
// that it is a job store of a version this code reads; a newer version is an error naming
// it (kFailedPrecondition), a file without our meta table or with an unreadable version
// is kIo. Runs in its own transaction.
Status ensure_job_store_schema(SqliteDb& db);

// The meta table: small named values (counters, versions, daemon snapshots), binary-safe.
Result<std::optional<std::string>> read_meta(SqliteDb& db, std::string_view key);
Status write_meta(SqliteDb& db, std::string_view key, std::string_view value);

// The next job id to hand out: the persisted counter, but never at or below an existing
// job's id, so a counter that lags (e.g. edited by hand) cannot cause reuse.
Result<std::uint64_t> read_next_job_id(SqliteDb& db);

}  // namespace fairway::daemon
