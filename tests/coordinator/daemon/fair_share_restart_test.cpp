// Fair-share survives a coordinator restart (issue 9: what survives a crash): the usage
// of finished and still running jobs comes back from the store, so a heavy user does not
// start over with a clean slate. Synchronous, fake time.
#include <gtest/gtest.h>

#include <filesystem>

#include "store_test_fixture.h"
#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

class FairShareRestart : public test_support::CoordinatorFixture {
 protected:
  void open(const std::string& fairshare) {
    CoordinatorFixture::open(
        "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 8\n"
        "[[accounts]]\nname = \"heavy\"\nusers = [\"root\"]\n"
        "[[accounts]]\nname = \"light\"\nusers = [\"root\"]\n"
        "[priority]\nfairshare = 1000.0\n[fairshare]\n" +
            fairshare,
        coordinator_extra_);
    if (HasFatalFailure()) return;
    register_node("n1", 8, {}, false);
  }
  JobId submit(const std::string& account, std::int32_t cores, bool hold = false) {
    wire::SubmitRequest r = request(cores);
    r.spec.account = account;
    r.spec.hold = hold;
    return CoordinatorFixture::submit(r);
  }

  // A fresh store and service per fair-share setting, as each test's loop runs them.
  void fresh(const std::string& fairshare) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    open(fairshare);
  }
  // A heavy-account job on the whole node for five hours, ended two hours ago.
  void run_heavy_job() {
    const JobId done = submit("heavy", 8);
    report(done, JobState::kRunning);
    t_ = t_ + Duration::hours(5);
    report(done, JobState::kCompleted);
    t_ = t_ + Duration::hours(2);
  }

  std::size_t rows(const std::string& table) const {
    return select_on(dir_ + "/" + JobStore::kFileName, "SELECT * FROM " + table).size();
  }

  std::string coordinator_extra_;
};

TEST_F(FairShareRestart, FinishedAndRunningUsageComeBackAsTheyWere) {
  for (const std::string fairshare :
       {"half_life = \"1d\"\n", "window = \"2d\"\nwindow_weight = \"linear\"\n"}) {
    SCOPED_TRACE(fairshare);
    fresh(fairshare);
    const JobId heavy_marker = submit("heavy", 1, true);  // held: its association's usage
    const JobId light_marker = submit("light", 1, true);
    run_heavy_job();
    const JobId running = submit("heavy", 4);
    report(running, JobState::kRunning);
    t_ = t_ + Duration::hours(3);
    const double heavy = usage_of(heavy_marker);
    const double light = usage_of(light_marker);
    ASSERT_GT(heavy, 0);
    EXPECT_EQ(light, 0);

    open(fairshare);  // the coordinator crashes and comes back at the same instant
    EXPECT_NEAR(usage_of(heavy_marker), heavy, heavy * 1e-9);
    EXPECT_EQ(usage_of(light_marker), 0);
    // The running job keeps accruing after the restart, and stops when it ends.
    const double before_end = usage_of(heavy_marker);
    t_ = t_ + Duration::hours(1);
    report(running, JobState::kCompleted);
    EXPECT_GT(usage_of(heavy_marker), before_end);
    service_.reset();
  }
}

// keep_finished may be shorter than usage counts: a purged job's run stays in the store
// (usage_runs) and is charged again after a restart, until it no longer counts.
TEST_F(FairShareRestart, APurgedJobsUsageComesBackUntilItNoLongerCounts) {
  coordinator_extra_ = "keep_finished = \"1h\"\n";
  for (const std::string fairshare :
       {"half_life = \"1d\"\n", "window = \"2d\"\nwindow_weight = \"linear\"\n"}) {
    SCOPED_TRACE(fairshare);
    fresh(fairshare);
    const JobId heavy_marker = submit("heavy", 1, true);
    run_heavy_job();
    service_->on_timer(t_);  // the hourly purge: `done` ended 2 h ago
    (void)service_->end_turn(t_);
    ASSERT_EQ(rows("jobs"), 1u) << "only the held marker is left";
    ASSERT_EQ(rows("usage_runs"), 1u);
    const double heavy = usage_of(heavy_marker);
    ASSERT_GT(heavy, 0);

    open(fairshare);
    EXPECT_NEAR(usage_of(heavy_marker), heavy, heavy * 1e-9) << "the purged job's usage was forgotten";

    // Once it no longer counts (20 half-lives; past the window), the run goes too.
    t_ = t_ + Duration::days(21);
    service_->on_timer(t_);
    (void)service_->end_turn(t_);
    EXPECT_EQ(rows("usage_runs"), 0u);
    service_.reset();
  }
}

}  // namespace
}  // namespace fairway::daemon
