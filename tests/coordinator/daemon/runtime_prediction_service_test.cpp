// scheduler.runtime_prediction at the coordinator, synchronously: predictions learnt from
// the agents' completions come back from the store after a restart, and `show job` of a
// waiting job shows its start planned by prediction and by limits.
#include <gtest/gtest.h>

#include <unistd.h>

#include "coordinator/daemon/coordinator_service.h"
#include "root_authenticator.h"
#include "service_test_fixture.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

class RuntimePredictionService : public test_support::ServiceTest {
 protected:
  std::unique_ptr<ClientAuthenticator> authenticator() const override {
    return std::make_unique<test_support::RootOnlyAuthenticator>();
  }
  void SetUp() override {
    ServiceTest::SetUp();
    config_.scheduler.runtime_prediction = RuntimePrediction::kUserLast2;
    restart();
  }
  void restart() {
    reopen();
    wire::AgentRegister reg{"n1", "test", NodeTopology::uniform("n1", 1, 4), running_, ""};
    service_->on_agent_frame("n1", wire::encode(reg), t_, "n1");
    (void)turn();
  }
  wire::Message turn() {
    wire::Message client = wire::ErrorReply{};
    for (const Outgoing& o : service_->end_turn(t_)) {
      auto m = wire::decode(o.frame);
      EXPECT_TRUE(m);
      if (o.channel == Channel::kClients) client = *m;
      if (auto* l = std::get_if<wire::LaunchJob>(&*m)) launches_.push_back(*l);
    }
    return client;
  }
  wire::Message ask(const wire::Message& m) {
    service_->on_client_frame("client", wire::encode(m), t_, net::PeerCredentials{0, 0, 4242});
    return turn();
  }
  JobId submit(Duration limit) {
    wire::SubmitRequest r;
    r.client_token = "t" + std::to_string(++token_);
    r.spec.resources.cores = 4;
    r.spec.time_limit = limit;
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    const wire::Message m = ask(r);
    const auto* ok = std::get_if<wire::SubmitReply>(&m);
    EXPECT_NE(ok, nullptr);
    return ok ? ok->job : JobId(0);
  }
  void report(JobId job, JobState state) {
    wire::JobStatusUpdate u;
    u.node = "n1";
    u.seq = ++seq_;
    u.job = job;
    u.state = state;
    if (is_terminal(state)) u.exit_code = 0;
    u.time = t_;
    service_->on_agent_frame("n1", wire::encode(u), t_, "n1");
    (void)turn();
  }
  // A job that runs `run` on the whole node and completes.
  void run_for(Duration run) {
    const JobId id = submit(Duration::hours(2));
    report(id, JobState::kRunning);
    t_ = t_ + run;
    report(id, JobState::kCompleted);
  }
  wire::JobView show(JobId id) {
    wire::JobQuery q;
    q.jobs = {id};
    q.include_finished = true;
    const wire::Message m = ask(q);
    const auto* r = std::get_if<wire::JobQueryReply>(&m);
    EXPECT_TRUE(r != nullptr && r->jobs.size() == 1);
    return r != nullptr && r->jobs.size() == 1 ? r->jobs[0] : wire::JobView{};
  }

  std::vector<wire::LaunchJob> launches_;
  std::vector<wire::RunningJob> running_;
  int token_ = 0;
  std::uint64_t seq_ = 0;
};

TEST_F(RuntimePredictionService, PredictionsComeBackFromTheStoreAndShowJobShowsBothStarts) {
  run_for(Duration::minutes(10));
  run_for(Duration::minutes(20));
  EXPECT_EQ(service_->scheduler().predicted_runtime("root", Duration::hours(2)), Duration::minutes(15));
  restart();  // memory is gone; the store's finished jobs teach it again
  EXPECT_EQ(service_->scheduler().predicted_runtime("root", Duration::hours(2)), Duration::minutes(15));

  const JobId running = submit(Duration::hours(2));
  report(running, JobState::kRunning);
  const Time started = t_;
  t_ = t_ + Duration::minutes(1);
  const JobId waiting = submit(Duration::hours(2));
  const wire::JobView v = show(waiting);
  EXPECT_EQ(v.state, JobState::kPending);
  EXPECT_EQ(v.predicted_runtime, Duration::minutes(15));
  EXPECT_EQ(v.estimated_start, started + Duration::minutes(15));
  EXPECT_EQ(v.estimated_start_by_limit, started + Duration::hours(2));
  EXPECT_EQ(show(running).predicted_runtime, Duration::minutes(15));
  EXPECT_FALSE(show(running).estimated_start_by_limit.has_value());

  // Without predictions a view carries neither.
  config_.scheduler.runtime_prediction = RuntimePrediction::kNone;
  for (const wire::LaunchJob& l : launches_) {
    if (l.job == running) running_.push_back({running, l.cores, l.gpus, started, 4242});
  }
  restart();
  const wire::JobView plain = show(waiting);
  EXPECT_FALSE(plain.predicted_runtime.has_value());
  EXPECT_FALSE(plain.estimated_start_by_limit.has_value());
  EXPECT_EQ(plain.estimated_start, started + Duration::hours(2));
}

}  // namespace
}  // namespace fairway::daemon
