// Fair-share survives a coordinator restart (issue 9: what survives a crash): the usage
// of finished and still running jobs comes back from the store, so a heavy user does not
// start over with a clean slate. Synchronous, fake time.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "coordinator/daemon/coordinator_service.h"
#include "root_authenticator.h"
#include "shared/wire/codec.h"
#include "store_test_fixture.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

class FairShareRestart : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fw-fairshare-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
  }
  void TearDown() override {
    service_.reset();
    fs::remove_all(dir_);
  }
  void open(const std::string& fairshare) {
    service_.reset();  // a crash: memory is gone, the store stays
    auto config = parse_config(
        "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 8\n"
        "[[accounts]]\nname = \"heavy\"\nusers = [\"root\"]\n"
        "[[accounts]]\nname = \"light\"\nusers = [\"root\"]\n"
        "[priority]\nfairshare = 1000.0\n[fairshare]\n" +
            fairshare + "[coordinator]\nstate_dir = \"" + dir_ + "\"\n" + coordinator_extra_,
        "test");
    ASSERT_TRUE(config) << config.error().message;
    auto s = CoordinatorService::open(*config, t_, std::make_unique<test_support::RootOnlyAuthenticator>());
    ASSERT_TRUE(s) << s.error().message;
    service_ = std::move(*s);
    wire::AgentRegister reg{"n1", "test", NodeTopology::uniform("n1", 1, 8), {}, ""};
    service_->on_agent_frame("n1", wire::encode(reg), t_, "n1");
    (void)service_->end_turn(t_, false);
  }
  JobId submit(const std::string& account, std::int32_t cores, bool hold = false) {
    wire::SubmitRequest r;
    r.client_token = "t" + std::to_string(++token_);
    r.spec.account = account;
    r.spec.resources.cores = cores;
    r.spec.hold = hold;
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    service_->on_client_frame("c", wire::encode(r), t_, net::PeerCredentials{0, 0, 1});
    for (const Outgoing& o : service_->end_turn(t_)) {
      if (auto m = wire::decode(o.frame); m && std::holds_alternative<wire::SubmitReply>(*m)) {
        return std::get<wire::SubmitReply>(*m).job;
      }
    }
    ADD_FAILURE() << "no submit reply";
    return JobId{};
  }
  void report(JobId id, JobState state) {
    wire::JobStatusUpdate u;
    u.node = "n1";
    u.seq = ++seq_;
    u.job = id;
    u.state = state;
    if (is_terminal(state)) u.exit_code = 0;
    u.time = t_;
    service_->on_agent_frame("n1", wire::encode(u), t_, "n1");
    (void)service_->end_turn(t_);
  }
  double usage_of(JobId held) const {
    const JobRecord* r = service_->scheduler().job(held);
    EXPECT_NE(r, nullptr);
    return r ? service_->scheduler().fair_share().account_usage(r->association, t_) : -1;
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

  std::string dir_;
  std::string coordinator_extra_;
  Time t_ = Time::from_seconds(1'700'000'000);
  std::unique_ptr<CoordinatorService> service_;
  int token_ = 0;
  std::uint64_t seq_ = 0;
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
