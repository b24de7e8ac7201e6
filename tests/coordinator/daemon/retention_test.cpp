// [coordinator] keep_finished: finished jobs leave the store once they ended that long
// ago, checked hourly by the timer; waiting ones never do.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "coordinator/daemon/coordinator_service.h"
#include "root_authenticator.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

class Retention : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fw-retention-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    auto config = parse_config(
        "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n"
        "[coordinator]\nkeep_finished = \"2h\"\nstate_dir = \"" +
            dir_ + "\"\n",
        "test");
    ASSERT_TRUE(config) << config.error().message;
    auto s = CoordinatorService::open(*config, t_, std::make_unique<test_support::RootOnlyAuthenticator>());
    ASSERT_TRUE(s) << s.error().message;
    service_ = std::move(*s);
  }
  void TearDown() override {
    service_.reset();
    fs::remove_all(dir_);
  }
  wire::Message ask(const wire::Message& m) {
    service_->on_client_frame("c", wire::encode(m), t_, net::PeerCredentials{0, 0, 1});
    for (const Outgoing& o : service_->end_turn(t_, false)) {
      if (auto r = wire::decode(o.frame)) return *r;
    }
    return wire::ErrorReply{};
  }
  JobId held_job() {
    wire::SubmitRequest r;
    r.spec.hold = true;
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    return std::get<wire::SubmitReply>(ask(r)).job;
  }
  std::size_t in_history(JobId id) {
    wire::JobQuery q;
    q.from_store = true;
    q.include_finished = true;
    q.jobs = {id};
    return std::get<wire::JobQueryReply>(ask(q)).jobs.size();
  }

  std::string dir_;
  Time t_ = Time::from_seconds(1'700'000'000);
  std::unique_ptr<CoordinatorService> service_;
};

TEST_F(Retention, FinishedJobsLeaveTheStoreAfterKeepFinishedWaitingOnesStay) {
  const JobId ended = held_job();
  const JobId waiting = held_job();
  ask(wire::JobControl{wire::JobAction::kCancel, {ended}, ""});
  ASSERT_EQ(in_history(ended), 1u);

  t_ = t_ + Duration::minutes(90);
  service_->on_timer(t_);
  service_->end_turn(t_, false);
  EXPECT_EQ(in_history(ended), 1u) << "ended 90 minutes ago, kept for 2 hours";

  t_ = t_ + Duration::minutes(61);
  service_->on_timer(t_);
  service_->end_turn(t_, false);
  EXPECT_EQ(in_history(ended), 0u) << "ended more than 2 hours ago";
  wire::JobQuery q;
  q.jobs = {waiting};
  EXPECT_EQ(std::get<wire::JobQueryReply>(ask(q)).jobs.size(), 1u);
}

}  // namespace
}  // namespace fairway::daemon
