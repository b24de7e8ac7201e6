// A running job whose stop the coordinator decided (scancel, scontrol requeue, its time
// limit) is shown as Slurm shows it from that moment (COMPLETING, and the state decided for
// accounting), not RUNNING until its agent reports the processes gone (issue 35).
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "coordinator/daemon/coordinator_service.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

class Alice final : public ClientAuthenticator {
 public:
  Result<Caller> from_kernel(const net::PeerCredentials& p) override {
    if (p.uid == 0) return Caller{0, 0, "root", true};
    return Caller{1001, 100, "alice", false};
  }
  Result<Caller> from_munge(std::string_view, std::string_view) override {
    return make_error(ErrorCode::kPermissionDenied, "no munge here");
  }
};

class JobStopView : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fw-stopview-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    auto config = parse_config(
        "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n"
        "[coordinator]\nstate_dir = \"" +
            dir_ + "\"\n",
        "test");
    ASSERT_TRUE(config) << config.error().message;
    auto s = CoordinatorService::open(*config, t_, std::make_unique<Alice>());
    ASSERT_TRUE(s) << s.error().message;
    service_ = std::move(*s);
    wire::AgentRegister reg{"n1", "test", NodeTopology::uniform("n1", 1, 4), {}, ""};
    service_->on_agent_frame("n1", wire::encode(reg), t_, "n1");
    (void)turn();
  }
  void TearDown() override {
    service_.reset();
    fs::remove_all(dir_);
  }
  wire::Message turn() {
    wire::Message client = wire::ErrorReply{};
    for (const Outgoing& o : service_->end_turn(t_)) {
      auto m = wire::decode(o.frame);
      EXPECT_TRUE(m);
      if (o.channel == Channel::kClients) client = *m;
    }
    return client;
  }
  wire::Message ask(const wire::Message& m) {
    service_->on_client_frame("client", wire::encode(m), t_, net::PeerCredentials{1001, 100, 4242});
    return turn();
  }
  // A one-core job with a 10-minute limit, started on n1.
  JobId running_job() {
    wire::SubmitRequest r;
    r.spec.resources.cores = 1;
    r.spec.time_limit = Duration::minutes(10);
    r.program.argv = {"sleep", "10000"};
    r.program.working_dir = "/tmp";
    auto m = ask(r);
    EXPECT_TRUE(std::holds_alternative<wire::SubmitReply>(m));
    const JobId id =
        std::holds_alternative<wire::SubmitReply>(m) ? std::get<wire::SubmitReply>(m).job : JobId(0);
    EXPECT_EQ(view(id).state, JobState::kRunning);
    return id;
  }
  wire::JobView view(JobId id) {
    wire::JobQuery q;
    q.jobs = {id};
    q.include_finished = true;
    auto m = ask(q);
    const auto* r = std::get_if<wire::JobQueryReply>(&m);
    if (r == nullptr || r->jobs.empty()) {
      ADD_FAILURE() << "job " << id.value() << " not answered";
      return {};
    }
    return r->jobs.front();
  }
  void control(wire::JobAction action, JobId id) {
    auto m = ask(wire::JobControl{action, {id}, "alice"});
    ASSERT_TRUE(std::holds_alternative<wire::JobControlReply>(m));
    ASSERT_TRUE(std::get<wire::JobControlReply>(m).results.at(0).ok)
        << std::get<wire::JobControlReply>(m).results.at(0).message;
  }
  // Its agent reports the processes gone (killed after the grace).
  void reported(JobId id, JobState state) {
    wire::JobStatusUpdate u{"n1", 1, id, state, std::nullopt, 9, t_, "", std::nullopt, std::nullopt};
    service_->on_agent_frame("n1", wire::encode(u), t_, "n1");
    (void)turn();
  }

  std::string dir_;
  Time t_ = Time::from_seconds(1'700'000'000);
  std::unique_ptr<CoordinatorService> service_;
};

TEST_F(JobStopView, ACancelledJobIsCancelledByItsCancellerFromTheCancelOn) {
  const JobId id = running_job();
  control(wire::JobAction::kCancel, id);
  const wire::JobView v = view(id);
  EXPECT_EQ(v.state, JobState::kCompleting);
  EXPECT_TRUE(v.cancelling);
  EXPECT_EQ(v.stopping_as, JobState::kCancelled);
  EXPECT_NE(v.state_reason.find("alice"), std::string::npos) << v.state_reason;  // sacct: CANCELLED by 1001
  EXPECT_TRUE(v.reasons.empty());
  t_ = t_ + Duration::seconds(5);
  reported(id, JobState::kCancelled);
  EXPECT_EQ(view(id).state, JobState::kCancelled);
  EXPECT_FALSE(view(id).stopping_as);
}

TEST_F(JobStopView, ARequeuedJobIsBackInTheQueueWithItsRestartCountedAtOnce) {
  const JobId id = running_job();
  control(wire::JobAction::kRequeue, id);
  const wire::JobView v = view(id);
  EXPECT_EQ(v.state, JobState::kCompleting);
  EXPECT_FALSE(v.cancelling);
  EXPECT_EQ(v.stopping_as, JobState::kRequeued);
  EXPECT_EQ(v.requeue_count, 1);
  EXPECT_FALSE(v.start_time) << "its run is over: RunTime=0, as Slurm's";
  t_ = t_ + Duration::seconds(5);
  reported(id, JobState::kCancelled);
  const wire::JobView after = view(id);
  EXPECT_EQ(after.requeue_count, 1) << "counted once";
  EXPECT_FALSE(after.stopping_as);
}

TEST_F(JobStopView, AJobPastItsTimeLimitIsTimingOutUntilItsAgentReports) {
  const JobId id = running_job();
  t_ = t_ + Duration::minutes(10) - Duration::seconds(1);
  EXPECT_EQ(view(id).state, JobState::kRunning);
  EXPECT_FALSE(view(id).stopping_as);
  t_ = t_ + Duration::seconds(1);
  const wire::JobView v = view(id);
  EXPECT_EQ(v.state, JobState::kCompleting);
  EXPECT_EQ(v.stopping_as, JobState::kTimeout);
  EXPECT_EQ(v.reasons, std::vector<std::string>{"TimeLimit"});
  ASSERT_EQ(v.reason_texts.size(), 1u);
  EXPECT_NE(v.reason_texts[0].find("10:00"), std::string::npos) << v.reason_texts[0];
  t_ = t_ + Duration::seconds(5);
  reported(id, JobState::kTimeout);
  EXPECT_EQ(view(id).state, JobState::kTimeout);
  EXPECT_FALSE(view(id).stopping_as);
}

}  // namespace
}  // namespace fairway::daemon
