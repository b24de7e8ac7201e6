#include "coordinator/daemon/job_store_schema.h"
#include "coordinator/daemon/known_nodes.h"
#include "coordinator/daemon/stored_request.h"
#include "shared/base/try.h"

#include <charconv>
#include <iterator>
#include <limits>
#include <string>

namespace fairway::daemon {
namespace {

// client_token is NULL when the submit carried none, so the partial unique index ignores
// it. state is its name (not its number) so the file reads well in the sqlite3 shell and
// survives a reordering of the enum. allocation is allocation_codec's text.
constexpr std::string_view kCreateSchema = R"sql(
CREATE TABLE meta (
  key TEXT PRIMARY KEY NOT NULL,
  value BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY NOT NULL,
  user TEXT NOT NULL,
  client_token TEXT,
  request BLOB NOT NULL,
  state TEXT NOT NULL,
  submit_time INTEGER NOT NULL,
  start_time INTEGER,
  end_time INTEGER,
  allocation TEXT NOT NULL,
  exit_code INTEGER,
  signal INTEGER,
  reason TEXT NOT NULL,
  requeue_count INTEGER NOT NULL,
  peak_memory_bytes INTEGER,
  cpu_time_ms INTEGER
);
CREATE UNIQUE INDEX jobs_by_token ON jobs (user, client_token) WHERE client_token IS NOT NULL;
CREATE INDEX jobs_by_end_time ON jobs (end_time) WHERE end_time IS NOT NULL;
CREATE INDEX jobs_by_user ON jobs (user, id);
CREATE TABLE node_admin (
  node TEXT PRIMARY KEY NOT NULL,
  drained INTEGER NOT NULL,
  reason TEXT NOT NULL,
  by_user TEXT NOT NULL DEFAULT '',
  by_uid INTEGER,
  at INTEGER
) WITHOUT ROWID;
)sql";

// Came with schema 4: a fresh store and a migrated one create it alike.
constexpr std::string_view kCreateStepsTable = R"sql(
CREATE TABLE job_steps (
  job INTEGER NOT NULL,
  step INTEGER NOT NULL,
  name TEXT NOT NULL,
  ntasks INTEGER NOT NULL,
  nodes INTEGER NOT NULL,
  state TEXT NOT NULL,
  start_time INTEGER NOT NULL,
  end_time INTEGER,
  exit_code INTEGER NOT NULL,
  signal INTEGER NOT NULL,
  PRIMARY KEY (job, step)
) WITHOUT ROWID;
)sql";

// Came with schema 5: what a step's tasks used (sacct's MaxRSS and TotalCPU of ID.N).
// Came with schema 7: the runs of purged jobs, kept for fair-share (StoredUsageRun).
constexpr std::string_view kCreateUsageRuns = R"sql(
CREATE TABLE usage_runs (
  job INTEGER PRIMARY KEY NOT NULL,
  account TEXT NOT NULL,
  user TEXT NOT NULL,
  reservation TEXT NOT NULL,
  start_time INTEGER NOT NULL,
  end_time INTEGER NOT NULL,
  cores INTEGER NOT NULL,
  memory_mb INTEGER NOT NULL,
  gpu_types TEXT NOT NULL
);
CREATE INDEX usage_runs_by_end_time ON usage_runs (end_time);
)sql";

constexpr std::string_view kAddStepUsage =
    "ALTER TABLE job_steps ADD COLUMN max_rss_kb INTEGER;"
    "ALTER TABLE job_steps ADD COLUMN cpu_us INTEGER;";

Result<std::int64_t> count_rows(SqliteDb& db, std::string_view sql) {
  FAIRWAY_TRY_ASSIGN(stmt, db.prepare_cached(sql));
  FAIRWAY_TRY_ASSIGN(row, (stmt)->step());
  if (!row) return make_error(ErrorCode::kInternal, "no row from '" + std::string(sql) + "'");
  return (stmt)->column_int64(0);
}

}  // namespace

Result<std::optional<std::string>> read_meta(SqliteDb& db, std::string_view key) {
  FAIRWAY_TRY_ASSIGN(stmt, db.prepare_cached("SELECT value FROM meta WHERE key = ?1"));
  FAIRWAY_TRY((stmt)->bind_text(1, key));
  FAIRWAY_TRY_ASSIGN(row, (stmt)->step());
  if (!row) return std::optional<std::string>();
  return std::optional<std::string>((stmt)->column_blob(0));
}

Status write_meta(SqliteDb& db, std::string_view key, std::string_view value) {
  FAIRWAY_TRY_ASSIGN(stmt, db.prepare_cached("INSERT INTO meta (key, value) VALUES (?1, ?2) "
                                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value"));
  FAIRWAY_TRY((stmt)->bind_text(1, key));
  FAIRWAY_TRY((stmt)->bind_blob(2, value));
  FAIRWAY_TRY((stmt)->step());
  return ok_status();
}

namespace {

template <typename Int>
std::optional<Int> parse_int(std::string_view text) {
  Int value{};
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

Status create_schema(SqliteDb& db) {
  FAIRWAY_TRY(db.exec(kCreateSchema, "create the job store schema"));
  FAIRWAY_TRY(db.exec(kCreateStepsTable, "create the job steps table"));
  FAIRWAY_TRY(db.exec(kAddStepUsage, "add the job steps' usage columns"));
  FAIRWAY_TRY(db.exec(kCreateUsageRuns, "create the usage runs table"));
  if (auto s = write_meta(db, kMetaSchemaVersion, std::to_string(kJobStoreSchemaVersion)); !s) {
    return s;
  }
  return write_meta(db, kMetaNextJobId, "1");
}

// Schema 6: each job's request, kept until then as a wire frame (protocol version 1), is
// rewritten as the store's own record, so that a later wire version cannot strand it. In
// batches by id, so that a store of millions of jobs is not read into memory at once. A
// frame that cannot be read stops the migration naming the job: dropping it would lose it.
Status requests_to_store_records(SqliteDb& db) {
  constexpr int kBatch = 1000;
  FAIRWAY_TRY_ASSIGN(select,
                     db.prepare_cached("SELECT id, request FROM jobs WHERE id > ?1 ORDER BY id LIMIT ?2"));
  FAIRWAY_TRY_ASSIGN(update, db.prepare_cached("UPDATE jobs SET request = ?2 WHERE id = ?1"));
  std::int64_t after = 0;
  for (;;) {
    std::vector<std::pair<std::int64_t, std::string>> batch;
    select->reset();
    FAIRWAY_TRY(select->bind_int64(1, after));
    FAIRWAY_TRY(select->bind_int64(2, kBatch));
    for (;;) {
      FAIRWAY_TRY_ASSIGN(row, select->step());
      if (!row) break;
      batch.emplace_back(select->column_int64(0), select->column_blob(1));
    }
    if (batch.empty()) return ok_status();
    for (auto& [id, frame] : batch) {
      auto record = stored_request_from_wire_frame(frame);
      if (!record) {
        return make_error(ErrorCode::kIo, "job " + std::to_string(id) + ": " + record.error().message +
                                              "; the store is left at its old version, unchanged");
      }
      update->reset();
      FAIRWAY_TRY(update->bind_int64(1, id));
      FAIRWAY_TRY(update->bind_blob(2, *record));
      FAIRWAY_TRY(update->step());
    }
    after = batch.back().first;
  }
}

// Schema 8: the nodes a coordinator without [[nodes]] remembered, kept until then as wire
// frames, are rewritten as the store's own records (known_nodes.h). One that cannot be read
// stops the migration naming it, as a job's request does.
Status node_records_to_store_records(SqliteDb& db) {
  std::vector<std::pair<std::string, std::string>> rewritten;
  {
    FAIRWAY_TRY_ASSIGN(select,
                       db.prepare_cached("SELECT key, value FROM meta WHERE substr(key, 1, ?2) = ?1"));
    FAIRWAY_TRY(select->bind_text(1, kKnownNodePrefix));
    FAIRWAY_TRY(select->bind_int64(2, static_cast<std::int64_t>(kKnownNodePrefix.size())));
    for (;;) {
      FAIRWAY_TRY_ASSIGN(row, select->step());
      if (!row) break;
      std::string key = select->column_text(0);
      auto record = known_node_record_from_wire(select->column_blob(1));
      if (!record) {
        return make_error(ErrorCode::kIo, "the store's record of " + key + ": " + record.error().message +
                                              "; the store is left at its old version, unchanged");
      }
      rewritten.emplace_back(std::move(key), std::move(*record));
    }
  }
  for (const auto& [key, record] : rewritten) FAIRWAY_TRY(write_meta(db, key, record));
  return ok_status();
}

// Each schema version's changes to the one before, applied in order to an older file:
// its SQL, then what only code can do.
struct Migration {
  std::int64_t to;
  std::string_view sql;
  const char* what;
  Status (*rewrite)(SqliteDb&) = nullptr;
};
constexpr Migration kMigrations[] = {
    {2,
     "ALTER TABLE jobs ADD COLUMN peak_memory_bytes INTEGER;"
     "ALTER TABLE jobs ADD COLUMN cpu_time_ms INTEGER;"
     "CREATE INDEX jobs_by_user ON jobs (user, id);",
     "add the job usage columns (schema 1 -> 2)"},
    {3,
     "ALTER TABLE node_admin ADD COLUMN by_user TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE node_admin ADD COLUMN by_uid INTEGER;"
     "ALTER TABLE node_admin ADD COLUMN at INTEGER;",
     "add who drained a node and when (schema 2 -> 3)"},
    {4, kCreateStepsTable, "add the job steps table (schema 3 -> 4)"},
    {5, kAddStepUsage, "add the job steps' usage columns (schema 4 -> 5)"},
    {6, "", "store each job's request as a record of the store's own (schema 5 -> 6)",
     requests_to_store_records},
    {7, kCreateUsageRuns, "keep purged jobs' runs for fair-share (schema 6 -> 7)"},
    {8, "", "store each remembered node as a record of the store's own (schema 7 -> 8)",
     node_records_to_store_records},
};
static_assert(kMigrations[std::size(kMigrations) - 1].to == kJobStoreSchemaVersion,
              "every schema version has its migration");

Status check_schema(SqliteDb& db) {
  FAIRWAY_TRY_ASSIGN(
      has_meta, count_rows(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta'"));
  if (has_meta == 0) {
    return make_error(ErrorCode::kIo, "'" + db.path() +
                                          "' holds tables but is not a Fairway job store "
                                          "(no meta table)");
  }
  FAIRWAY_TRY_ASSIGN(version_text, read_meta(db, kMetaSchemaVersion));
  if (!version_text) {
    return make_error(ErrorCode::kIo, "'" + db.path() + "' has no schema_version in its meta table");
  }
  auto version = parse_int<std::int64_t>(*version_text);
  if (!version || *version < 1) {
    return make_error(ErrorCode::kIo,
                      "'" + db.path() + "' has an unreadable schema_version '" + *version_text + "'");
  }
  if (*version > kJobStoreSchemaVersion) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "'" + db.path() + "' has schema version " + std::to_string(*version) +
                          ", newer than version " + std::to_string(kJobStoreSchemaVersion) +
                          " that this coordinator reads; run a newer coordinator");
  }
  // Older files are brought forward in place, in the schema check's transaction: a crash
  // midway leaves the old version whole.
  for (const Migration& m : kMigrations) {
    if (*version < m.to) {
      if (!m.sql.empty()) FAIRWAY_TRY(db.exec(m.sql, m.what));
      if (m.rewrite != nullptr) FAIRWAY_TRY(m.rewrite(db));
    }
  }
  if (*version < kJobStoreSchemaVersion) {
    return write_meta(db, kMetaSchemaVersion, std::to_string(kJobStoreSchemaVersion));
  }
  return ok_status();
}

}  // namespace

bool is_reserved_meta_key(std::string_view key) {
  return key == kMetaSchemaVersion || key == kMetaNextJobId;
}

Status ensure_job_store_schema(SqliteDb& db) {
  // IMMEDIATE: two coordinators racing to create the schema must not both see it empty.
  FAIRWAY_TRY(db.exec("BEGIN IMMEDIATE", "begin the schema check"));
  auto tables = count_rows(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'");
  Status result = !tables        ? Status(std::unexpected(tables.error()))
                  : *tables == 0 ? create_schema(db)
                                 : check_schema(db);
  if (!result) {
    (void)db.exec("ROLLBACK", "roll back the schema check");
    return result;
  }
  return db.exec("COMMIT", "commit the schema");
}

Result<std::uint64_t> read_next_job_id(SqliteDb& db) {
  FAIRWAY_TRY_ASSIGN(counter_text, read_meta(db, kMetaNextJobId));
  if (!counter_text) {
    return make_error(ErrorCode::kIo, "'" + db.path() + "' has no next_job_id in its meta table");
  }
  auto counter = parse_int<std::uint64_t>(*counter_text);
  constexpr auto kMaxId = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (!counter || *counter < 1 || *counter > kMaxId) {
    return make_error(ErrorCode::kIo,
                      "'" + db.path() + "' has an unreadable next_job_id '" + *counter_text + "'");
  }
  FAIRWAY_TRY_ASSIGN(max_id, count_rows(db, "SELECT coalesce(max(id), 0) FROM jobs"));
  std::uint64_t after_last = max_id > 0 ? static_cast<std::uint64_t>(max_id) + 1 : 1;
  return *counter > after_last ? *counter : after_last;
}

}  // namespace fairway::daemon
