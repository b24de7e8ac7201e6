#include "coordinator/daemon/job_store_schema.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "coordinator/daemon/stored_request.h"
#include "shared/base/hex.h"
#include "shared/wire/codec.h"
#include "tests/coordinator/daemon/store_test_fixture.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;
using JobStoreOpenTest = StoreTest;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(JobStoreOpenTest, CreatesTheDirectoryAndAWalDatabase) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->path(), db_path());
  EXPECT_TRUE(fs::is_regular_file(db_path()));

  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_path().c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "wal");
  sqlite3_finalize(stmt);
  sqlite3_close(db);
}

TEST_F(JobStoreOpenTest, AGarbageFileIsAClearErrorNotACrash) {
  fs::create_directories(state_dir());
  {
    std::ofstream out(db_path(), std::ios::binary);
    for (int i = 0; i < 512; ++i) out << "not a database " << i << '\n';
  }
  auto store = JobStore::open(state_dir());
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::kIo);
  EXPECT_TRUE(contains(store.error().message, db_path())) << store.error().message;
  EXPECT_TRUE(contains(store.error().message, "not an SQLite database")) << store.error().message;
}

TEST_F(JobStoreOpenTest, GarbageBehindAValidHeaderIsAClearErrorNotACrash) {
  fs::create_directories(state_dir());
  {
    std::ofstream out(db_path(), std::ios::binary);
    out.write("SQLite format 3\0", 16);
    for (int i = 0; i < 4096; ++i) out.put(static_cast<char>((i * 37 + 11) % 251));
  }
  auto store = JobStore::open(state_dir());
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::kIo);
  EXPECT_TRUE(contains(store.error().message, db_path())) << store.error().message;
}

TEST_F(JobStoreOpenTest, AShortGarbageFileIsAClearErrorToo) {
  fs::create_directories(state_dir());
  std::ofstream(db_path(), std::ios::binary) << "\x01garbage";
  auto store = JobStore::open(state_dir());
  ASSERT_FALSE(store);
  EXPECT_TRUE(contains(store.error().message, db_path())) << store.error().message;
}

TEST_F(JobStoreOpenTest, AOneByteFileIsRefusedNotOverwritten) {
  // SQLite alone would take this for an empty database and write a fresh one over it.
  fs::create_directories(state_dir());
  std::ofstream(db_path(), std::ios::binary) << "x";
  auto store = JobStore::open(state_dir());
  ASSERT_FALSE(store);
  EXPECT_TRUE(contains(store.error().message, "not an SQLite database")) << store.error().message;
  EXPECT_EQ(fs::file_size(db_path()), 1u);
}

TEST_F(JobStoreOpenTest, AnEmptyFileIsAFreshStore) {
  fs::create_directories(state_dir());
  std::ofstream(db_path(), std::ios::binary).flush();
  EXPECT_NE(open_store(), nullptr);
}

TEST_F(JobStoreOpenTest, ANewerSchemaVersionIsRefusedNamingIt) {
  ASSERT_NE(open_store(), nullptr);
  const std::string newer = std::to_string(kJobStoreSchemaVersion + 1);
  exec_raw("UPDATE meta SET value = '" + newer + "' WHERE key = 'schema_version'");
  auto store = JobStore::open(state_dir());
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_TRUE(contains(store.error().message, "schema version " + newer)) << store.error().message;
  EXPECT_TRUE(contains(store.error().message, db_path())) << store.error().message;
}

TEST_F(JobStoreOpenTest, AnUnreadableSchemaVersionIsRefused) {
  ASSERT_NE(open_store(), nullptr);
  exec_raw("UPDATE meta SET value = 'v1' WHERE key = 'schema_version'");
  auto store = JobStore::open(state_dir());
  ASSERT_FALSE(store);
  EXPECT_TRUE(contains(store.error().message, "'v1'")) << store.error().message;
}

TEST_F(JobStoreOpenTest, AnotherApplicationsDatabaseIsRefused) {
  fs::create_directories(state_dir());
  exec_raw("CREATE TABLE accounts (name TEXT)");
  auto store = JobStore::open(state_dir());
  ASSERT_FALSE(store);
  EXPECT_TRUE(contains(store.error().message, "not a Fairway job store")) << store.error().message;
}

TEST_F(JobStoreOpenTest, AStateDirThatCannotBeCreatedIsNamed) {
  // A regular file where a parent directory should be: fails even for root.
  std::ofstream(dir_ / "plain-file") << "x";
  const std::string wanted = (dir_ / "plain-file" / "state").string();
  auto store = JobStore::open(wanted);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::kIo);
  EXPECT_TRUE(contains(store.error().message, wanted)) << store.error().message;
}

TEST_F(JobStoreOpenTest, AStateDirThatIsAFileIsNamed) {
  const std::string file = (dir_ / "not-a-dir").string();
  std::ofstream(file) << "x";
  auto store = JobStore::open(file);
  ASSERT_FALSE(store);
  EXPECT_TRUE(contains(store.error().message, file)) << store.error().message;
}

TEST_F(JobStoreOpenTest, ADatabasePathThatIsADirectoryIsNamed) {
  fs::create_directories(db_path());
  auto store = JobStore::open(state_dir());
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::kIo);
  EXPECT_TRUE(contains(store.error().message, db_path())) << store.error().message;
}

TEST_F(JobStoreOpenTest, AReadOnlyStateDirIsNamed) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes through directory permissions";
  fs::create_directories(state_dir());
  fs::permissions(state_dir(), fs::perms::owner_read | fs::perms::owner_exec);
  auto store = JobStore::open(state_dir());
  fs::permissions(state_dir(), fs::perms::owner_all);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::kIo);
  EXPECT_TRUE(contains(store.error().message, db_path())) << store.error().message;
}

TEST_F(JobStoreOpenTest, ReopeningAnExistingStoreKeepsItsSchema) {
  ASSERT_NE(open_store(), nullptr);
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto version = store->get_meta("schema_version");
  ASSERT_TRUE(version);
  EXPECT_EQ(version->value_or(""), std::to_string(kJobStoreSchemaVersion));
}

// The tables the first release (schema 1) created.
constexpr const char* kSchemaOneTables = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY NOT NULL, user TEXT NOT NULL, client_token TEXT, request BLOB NOT NULL,
  state TEXT NOT NULL, submit_time INTEGER NOT NULL, start_time INTEGER, end_time INTEGER,
  allocation TEXT NOT NULL, exit_code INTEGER, signal INTEGER, reason TEXT NOT NULL,
  requeue_count INTEGER NOT NULL);
CREATE UNIQUE INDEX jobs_by_token ON jobs (user, client_token) WHERE client_token IS NOT NULL;
CREATE INDEX jobs_by_end_time ON jobs (end_time) WHERE end_time IS NOT NULL;
CREATE TABLE node_admin (node TEXT PRIMARY KEY NOT NULL, drained INTEGER NOT NULL, reason TEXT NOT NULL) WITHOUT ROWID;
)sql";

// Schema 2 is schema 1 with the job usage columns.
constexpr const char* kSchemaTwoChanges = R"sql(
ALTER TABLE jobs ADD COLUMN peak_memory_bytes INTEGER;
ALTER TABLE jobs ADD COLUMN cpu_time_ms INTEGER;
CREATE INDEX jobs_by_user ON jobs (user, id);
)sql";

// Schemas 3 to 5: who drained a node, the steps table, the steps' usage.
constexpr const char* kSchemaThreeToFiveChanges = R"sql(
ALTER TABLE node_admin ADD COLUMN by_user TEXT NOT NULL DEFAULT '';
ALTER TABLE node_admin ADD COLUMN by_uid INTEGER;
ALTER TABLE node_admin ADD COLUMN at INTEGER;
CREATE TABLE job_steps (
  job INTEGER NOT NULL, step INTEGER NOT NULL, name TEXT NOT NULL, ntasks INTEGER NOT NULL,
  nodes INTEGER NOT NULL, state TEXT NOT NULL, start_time INTEGER NOT NULL, end_time INTEGER,
  exit_code INTEGER NOT NULL, signal INTEGER NOT NULL, PRIMARY KEY (job, step)) WITHOUT ROWID;
)sql";

// Until schema 6 a job's request was stored as a wire frame: this one's, as SQL hex.
std::string wire_frame_sql(const std::string& name) {
  wire::SubmitRequest r;
  r.spec.name = name;
  r.spec.user = "alice";
  r.spec.resources.cores = 3;
  r.program.argv = {"/bin/true"};
  return "X'" + to_hex(wire::encode(r)) + "'";
}

// A store written by the first release (schema 1, no usage columns) opens, keeps its jobs,
// and is brought to the current schema in place.
TEST_F(JobStoreOpenTest, AVersionOneStoreIsMigratedInPlace) {
  fs::create_directories(state_dir());
  exec_raw(std::string(kSchemaOneTables) + R"sql(
INSERT INTO meta VALUES ('schema_version', '1'), ('next_job_id', '8');
INSERT INTO jobs VALUES (7, 'alice', NULL, )sql" +
           wire_frame_sql("one") + R"sql(, 'completed', 100, 110, 200, '', 0, NULL, '', 0);
)sql");
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto version = store->get_meta("schema_version");
  ASSERT_TRUE(version);
  EXPECT_EQ(version->value_or(""), std::to_string(kJobStoreSchemaVersion));
  auto jobs = store->load_jobs();
  ASSERT_TRUE(jobs) << jobs.error().message;
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ((*jobs)[0].id, JobId(7));
  EXPECT_FALSE((*jobs)[0].peak_memory_bytes.has_value());
  auto request = decode_stored_request((*jobs)[0].request);
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_EQ(request->spec.name, "one");
  EXPECT_EQ(request->spec.resources.cores, 3);
  EXPECT_EQ(request->program.argv, std::vector<std::string>{"/bin/true"});
  StoredJob j = (*jobs)[0];
  j.peak_memory_bytes = 123;
  j.cpu_time_ms = 456;
  ASSERT_TRUE(store->update_job(j));  // outside begin(): commits on its own
  store.reset();
  auto again = open_store();
  ASSERT_NE(again, nullptr);
  auto reloaded = again->load_jobs();
  ASSERT_TRUE(reloaded);
  EXPECT_EQ(reloaded->at(0), j);
}

// Schema 2 kept a drain's reason but not who set it or when (sinfo -R's USER and
// TIMESTAMP): its rows keep their reason, gain an empty user and no time, and new drains
// store both.
TEST_F(JobStoreOpenTest, AVersionTwoDrainKeepsItsReasonAndGainsWhoAndWhen) {
  fs::create_directories(state_dir());
  exec_raw(std::string(kSchemaOneTables) + kSchemaTwoChanges + R"sql(
INSERT INTO meta VALUES ('schema_version', '2'), ('next_job_id', '1');
INSERT INTO node_admin VALUES ('n007', 1, 'bad DIMM');
)sql");
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->get_meta("schema_version")->value_or(""), std::to_string(kJobStoreSchemaVersion));
  auto states = store->load_node_admin_states();
  ASSERT_TRUE(states) << states.error().message;
  EXPECT_EQ(*states,
            (std::vector<NodeAdminState>{{"n007", true, "bad DIMM", "", std::nullopt, std::nullopt}}));

  const NodeAdminState drained{"n008", true, "fan", "alice", 1001, Time::from_seconds(1'795'690'000)};
  ASSERT_TRUE(store->set_node_admin_state(drained));
  store.reset();
  auto again = open_store();
  ASSERT_NE(again, nullptr);
  auto reloaded = again->load_node_admin_states();
  ASSERT_TRUE(reloaded);
  ASSERT_EQ(reloaded->size(), 2u);
  EXPECT_EQ(reloaded->at(1), drained);
}

// Schema 4 recorded steps without what their tasks used: its steps keep every field and
// read as unmeasured; new ones store their usage.
TEST_F(JobStoreOpenTest, AVersionFourStepHasNoUsageAndNewStepsStoreIt) {
  fs::create_directories(state_dir());
  exec_raw(std::string(kSchemaOneTables) + kSchemaTwoChanges + kSchemaThreeToFiveChanges + R"sql(
INSERT INTO meta VALUES ('schema_version', '4'), ('next_job_id', '8');
INSERT INTO jobs VALUES (7, 'alice', NULL, )sql" +
           wire_frame_sql("four") + R"sql(, 'completed', 100, 110, 200, '', 0, NULL, '', 0, NULL, NULL);
INSERT INTO job_steps VALUES (7, 0, 'a.out', 4, 1, 'completed', 120, 190, 0, 0);
)sql");
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->get_meta("schema_version")->value_or(""), std::to_string(kJobStoreSchemaVersion));
  auto steps = store->load_steps(JobId(7), JobId(7));
  ASSERT_TRUE(steps) << steps.error().message;
  ASSERT_EQ(steps->size(), 1u);
  EXPECT_EQ((*steps)[0].name, "a.out");
  EXPECT_EQ((*steps)[0].end_time, Time::from_seconds(190));
  EXPECT_FALSE((*steps)[0].max_rss_kb.has_value());
  EXPECT_FALSE((*steps)[0].cpu_us.has_value());
  StoredStep measured = (*steps)[0];
  measured.step = 1;
  measured.max_rss_kb = 2988;
  measured.cpu_us = 1000;
  ASSERT_TRUE(store->put_step(measured));
  auto both = store->load_steps(JobId(7), JobId(7));
  ASSERT_TRUE(both);
  ASSERT_EQ(both->size(), 2u);
  EXPECT_EQ(both->at(1), measured);
}

// A schema 5 store whose request cannot be read (damaged, or not a submit request) is not
// migrated past it: the open fails naming the job, and the file keeps its old version and
// every row, for the admin to restore or mend.
TEST_F(JobStoreOpenTest, AVersionFiveRequestThatCannotBeReadStopsTheMigrationNamingTheJob) {
  fs::create_directories(state_dir());
  const std::string schema_five = std::string(kSchemaOneTables) + kSchemaTwoChanges +
                                  kSchemaThreeToFiveChanges +
                                  "ALTER TABLE job_steps ADD COLUMN max_rss_kb INTEGER;"
                                  "ALTER TABLE job_steps ADD COLUMN cpu_us INTEGER;";
  exec_raw(schema_five + R"sql(
INSERT INTO meta VALUES ('schema_version', '5'), ('next_job_id', '10');
INSERT INTO jobs VALUES (3, 'alice', NULL, )sql" +
           wire_frame_sql("fine") + R"sql(, 'pending', 100, NULL, NULL, '', NULL, NULL, '', 0, NULL, NULL);
INSERT INTO jobs VALUES (9, 'alice', NULL, X'c1c2', 'pending', 100, NULL, NULL, '', NULL, NULL, '', 0, NULL, NULL);
)sql");
  auto store = JobStore::open(state_dir());
  ASSERT_FALSE(store);
  EXPECT_TRUE(contains(store.error().message, "job 9")) << store.error().message;
  EXPECT_TRUE(contains(store.error().message, "left at its old version")) << store.error().message;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((state_dir() + "/" + JobStore::kFileName).c_str(), &db), SQLITE_OK);
  std::string version;
  sqlite3_exec(
      db, "SELECT value FROM meta WHERE key = 'schema_version'",
      [](void* out, int, char** values, char**) {
        *static_cast<std::string*>(out) = values[0];
        return 0;
      },
      &version, nullptr);
  int rows = 0;
  sqlite3_exec(
      db, "SELECT count(*) FROM jobs WHERE substr(request, 1, 1) = X'94'",
      [](void* out, int, char** values, char**) {
        *static_cast<int*>(out) = std::stoi(values[0]);
        return 0;
      },
      &rows, nullptr);
  sqlite3_close(db);
  EXPECT_EQ(version, "5");
  EXPECT_EQ(rows, 1) << "job 3 keeps its wire frame: the migration rolled back whole";
}

// ... and so does a remembered node's record that cannot be read (schema 8 rewrites them).
TEST_F(JobStoreOpenTest, AnOldNodeRecordThatCannotBeReadStopsTheMigrationNamingIt) {
  fs::create_directories(state_dir());
  exec_raw(std::string(kSchemaOneTables) + kSchemaTwoChanges + kSchemaThreeToFiveChanges +
           "ALTER TABLE job_steps ADD COLUMN max_rss_kb INTEGER;"
           "ALTER TABLE job_steps ADD COLUMN cpu_us INTEGER;"
           "INSERT INTO meta VALUES ('schema_version', '5'), ('next_job_id', '1'), ('node/n7', 'zz');");
  auto store = JobStore::open(state_dir());
  ASSERT_FALSE(store);
  EXPECT_TRUE(contains(store.error().message, "node/n7")) << store.error().message;
  EXPECT_EQ(select_on(db_path(), "SELECT value FROM meta WHERE key = 'schema_version'").at(0).at(0), "5");
}

}  // namespace
}  // namespace fairway::daemon
