// What an agent's registration says it runs against what the coordinator believes, tested
// synchronously with fake time (issue 14): a job the coordinator does not place there is
// killed, never run twice; a job it placed there that the agent no longer lists is lost
// once its last report could no longer be on the way, and requeued; one listed stays.
#include <gtest/gtest.h>

#include <csignal>

#include "coordinator/daemon/coordinator_service.h"
#include "service_test_fixture.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

class Reconcile : public test_support::ServiceTest {
 protected:
  std::vector<Outgoing> register_n1(std::vector<wire::RunningJob> running) {
    wire::AgentRegister reg{"n1", "test", NodeTopology::uniform("n1", 1, 4), std::move(running), ""};
    service_->on_agent_frame("n1", wire::encode(reg), t_, "n1");
    return service_->end_turn(t_);
  }
  JobId submit_running() {
    wire::SubmitRequest r;
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    service_->on_client_frame("c", wire::encode(r), t_, net::PeerCredentials{0, 0, 1});
    (void)service_->end_turn(t_);
    const JobId id(1);
    EXPECT_EQ(state(id), JobState::kRunning);
    return id;
  }
  std::optional<JobState> state(JobId id) const {
    const JobRecord* r = service_->scheduler().job(id);
    return r ? std::optional(r->state) : std::nullopt;
  }
  static std::vector<wire::SignalJob> signals_to_n1(const std::vector<Outgoing>& out) {
    std::vector<wire::SignalJob> s;
    for (const Outgoing& o : out) {
      if (o.channel != Channel::kAgents || o.peer != "n1") continue;
      if (auto m = wire::decode(o.frame); m && std::holds_alternative<wire::SignalJob>(*m)) {
        s.push_back(std::get<wire::SignalJob>(*m));
      }
    }
    return s;
  }
  // Time passes with the node heard from: only the reconcile can lose a job.
  void later(Duration d) {
    t_ = t_ + d;
    service_->on_agent_frame("n1", wire::encode(wire::Heartbeat{"n1", ++seq_, t_}), t_, "n1");
    service_->on_timer(t_);
    (void)service_->end_turn(t_);
  }
};

TEST_F(Reconcile, AJobTheCoordinatorDoesNotPlaceThereIsKilled) {
  const auto out = register_n1({wire::RunningJob{JobId(99), {0}, {}, t_, 1234}});
  EXPECT_EQ(signals_to_n1(out), (std::vector<wire::SignalJob>{{JobId(99), SIGKILL, Duration()}}));
}

TEST_F(Reconcile, AJobTheAgentStillListsKeepsRunning) {
  (void)register_n1({});
  const JobId id = submit_running();
  const auto out = register_n1({wire::RunningJob{id, {0}, {}, t_, 1234}});  // an agent restart
  EXPECT_TRUE(signals_to_n1(out).empty());
  later(config_.coordinator.heartbeat_timeout + Duration::seconds(5));
  EXPECT_EQ(state(id), JobState::kRunning);
}

TEST_F(Reconcile, AJobTheAgentNoLongerListsIsRequeuedOnceItsReportCannotComeAnyMore) {
  (void)register_n1({});
  const JobId id = submit_running();
  (void)register_n1({});  // the restarted agent knows nothing of it
  later(Duration::seconds(1));
  EXPECT_EQ(state(id), JobState::kRunning) << "its final report may still be on the way";
  later(config_.coordinator.heartbeat_timeout + Duration::seconds(5));
  const JobRecord* rec = service_->scheduler().job(id);
  ASSERT_NE(rec, nullptr);
  EXPECT_EQ(rec->requeue_count, 1) << "not requeued (the node is free: it may run again at once)";
  EXPECT_NE(rec->reason.find("no report from its node after a restart"), std::string::npos) << rec->reason;
}

}  // namespace
}  // namespace fairway::daemon
