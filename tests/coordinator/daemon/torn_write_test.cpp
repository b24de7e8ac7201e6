// A crash mid-write (issue 14's torn write): the store's file and its write-ahead log as a
// crash leaves them, the log cut at any byte or with a damaged frame. The store must open,
// and hold whole turns only: every turn before the tear, nothing of the turn torn.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/coordinator/daemon/store_test_fixture.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

constexpr int kTurns = 6;
constexpr int kJobsPerTurn = 3;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

class TornWrite : public StoreTest {
 protected:
  // Turn t inserts jobs 3t+1..3t+3 (pending) and starts the previous turn's jobs: a turn is
  // whole when its three jobs are there and its predecessor's are running.
  void write_turns(JobStore& store) {
    for (int t = 0; t < kTurns; ++t) {
      ASSERT_TRUE(store.begin());
      for (int j = 1; j <= kJobsPerTurn; ++j) {
        StoredJob job = sample(JobId(static_cast<std::uint64_t>(t * kJobsPerTurn + j)));
        ASSERT_TRUE(store.insert_job(job)) << job.id.value();
      }
      for (int j = 1; t > 0 && j <= kJobsPerTurn; ++j) {
        StoredJob job = sample(JobId(static_cast<std::uint64_t>((t - 1) * kJobsPerTurn + j)));
        job.state = JobState::kRunning;
        job.start_time = Time::from_seconds(1'700'000'100 + t);
        ASSERT_TRUE(store.update_job(job));
      }
      ASSERT_TRUE(store.commit());
    }
  }
  static StoredJob sample(JobId id) {
    StoredJob job;
    job.id = id;
    job.user = "alice";
    job.request = std::string(600, static_cast<char>('a' + id.value() % 26));
    job.submit_time = Time::from_seconds(1'700'000'000);
    return job;
  }

  // Opens the image (the file and this log) in a directory of its own; returns how many
  // whole turns it holds, failing the test when it holds part of one.
  int turns_in(const std::string& db, std::string_view wal, const std::string& what) {
    const fs::path dir = fs::path(state_dir()).parent_path() / ("image-" + std::to_string(images_++));
    fs::create_directories(dir);
    write_file(dir / JobStore::kFileName, db);
    write_file(dir / (std::string(JobStore::kFileName) + "-wal"), wal);
    auto store = JobStore::open(dir.string());
    EXPECT_TRUE(store) << what << ": " << store.error().message;
    if (!store) return -1;
    auto jobs = (*store)->load_jobs();
    EXPECT_TRUE(jobs) << what << ": " << jobs.error().message;
    if (!jobs) return -1;
    const int n = static_cast<int>(jobs->size());
    EXPECT_EQ(n % kJobsPerTurn, 0) << what << ": part of a turn's inserts";
    const int turns = n / kJobsPerTurn;
    for (const StoredJob& j : *jobs) {
      const int turn = static_cast<int>((j.id.value() - 1) / kJobsPerTurn);
      const bool started_by_later_turn = turn + 1 < turns;
      EXPECT_EQ(j.state, started_by_later_turn ? JobState::kRunning : JobState::kPending)
          << what << ": job " << j.id.value() << " of turn " << turn << " with " << turns << " turns whole";
      EXPECT_EQ(j.request, sample(j.id).request) << what << ": job " << j.id.value() << "'s request";
    }
    store->reset();
    fs::remove_all(dir);
    return turns;
  }

  int images_ = 0;
};

TEST_F(TornWrite, ALogCutAnywhereKeepsWholeTurnsOnly) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  write_turns(*store);
  // Copied while the store is open, as a crash leaves the files (closing would checkpoint).
  const std::string db = read_file(db_path());
  const std::string wal = read_file(db_path() + "-wal");
  ASSERT_GT(wal.size(), 32u * 1024) << "the turns are in the log, not yet in the file";

  EXPECT_EQ(turns_in(db, wal, "the whole log"), kTurns);
  int last = 0;
  const std::size_t step = wal.size() / 61 + 1;
  for (std::size_t cut = 0; cut < wal.size(); cut += step) {
    const int turns = turns_in(db, std::string_view(wal).substr(0, cut), "cut at " + std::to_string(cut));
    EXPECT_GE(turns, last) << "a longer log holds fewer turns, cut at " << cut;
    EXPECT_LT(turns, kTurns) << "a cut log still holds the last turn, cut at " << cut;
    last = std::max(last, turns);
  }
  EXPECT_GE(last, kTurns - 2) << "cuts late in the log lost more than the turns they tore";
}

TEST_F(TornWrite, ADamagedLogFrameKeepsTheTurnsBeforeIt) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  write_turns(*store);
  const std::string db = read_file(db_path());
  const std::string wal = read_file(db_path() + "-wal");
  // A sector of garbage written over the log at several places: the frames' checksums end
  // the log there, and whole turns before it remain.
  int last = -1;
  for (std::size_t at = 32; at + 512 < wal.size(); at += wal.size() / 7) {
    std::string damaged = wal;
    for (std::size_t i = 0; i < 512; ++i) damaged[at + i] = static_cast<char>(damaged[at + i] ^ 0xA5);
    const int turns = turns_in(db, damaged, "damaged at " + std::to_string(at));
    EXPECT_GE(turns, last) << "damage later in the log lost more, at " << at;
    last = std::max(last, turns);
  }
}

}  // namespace
}  // namespace fairway::daemon
