// A test fixture for the job store: a fresh temporary state directory per test (removed
// afterwards), sample jobs, and raw SQLite access to damage the file behind the store's back.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "coordinator/daemon/job_store.h"

namespace fairway::daemon {

// Runs SQL on a store's file with a separate connection, as an admin's shell would.
inline void exec_sql_on(const std::string& db_file, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_file.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  const std::string text = message != nullptr ? message : "";
  sqlite3_free(message);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << text;
}

// The rows of a query on a store's file, with a separate connection: each column as bytes
// (NULL as empty).
inline std::vector<std::vector<std::string>> select_on(const std::string& db_file, const std::string& sql) {
  std::vector<std::vector<std::string>> rows;
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(db_file.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  while (stmt != nullptr && sqlite3_step(stmt) == SQLITE_ROW) {
    auto& row = rows.emplace_back();
    for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
      const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, c));
      row.emplace_back(bytes == nullptr
                           ? ""
                           : std::string(bytes, static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))));
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rows;
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fairway-store-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::permissions(dir_, std::filesystem::perms::owner_all, std::filesystem::perm_options::add,
                                 ec);
    std::filesystem::remove_all(dir_, ec);
  }

  std::string state_dir() const { return (dir_ / "state").string(); }
  std::string db_path() const { return (dir_ / "state" / JobStore::kFileName).string(); }

  std::unique_ptr<JobStore> open_store() {
    auto store = JobStore::open(state_dir());
    EXPECT_TRUE(store.has_value()) << store.error().message;
    return store ? std::move(*store) : nullptr;
  }

  void exec_raw(const std::string& sql) { exec_sql_on(db_path(), sql); }

  // A job with every field set, so that a dropped column shows in a round trip.
  static StoredJob full_job(JobId id) {
    StoredJob job;
    job.id = id;
    job.user = "alice";
    job.client_token = "token-" + std::to_string(id.value());
    job.request = std::string("\x00\x01\xff submit bytes \x00", 18);
    job.state = JobState::kFailed;
    job.submit_time = Time::from_seconds(1'700'000'000);
    job.start_time = Time::from_seconds(1'700'000'100);
    job.end_time = Time::from_seconds(1'700'003'700);
    job.allocation = {{"n001", {0, 1, 2, 3, 8}, {0, 1}}, {"n002", {4, 5, 6, 7}, {}}};
    job.exit_code = 3;
    job.signal = 9;
    job.reason = "exit code 3 after node_fail requeue";
    job.requeue_count = 2;
    job.peak_memory_bytes = std::int64_t{3} << 30;
    job.cpu_time_ms = 7'200'000;
    return job;
  }

  // A just-submitted job: only what a submit carries.
  static StoredJob pending_job(JobId id, std::string user, std::string token) {
    StoredJob job;
    job.id = id;
    job.user = std::move(user);
    job.client_token = std::move(token);
    job.request = "req-" + std::to_string(id.value());
    job.submit_time = Time::from_seconds(1000);
    return job;
  }

  std::filesystem::path dir_;
};

}  // namespace fairway::daemon
