// The agent channel, synchronously (issue 33): a frame is the node's whose key sent it,
// whatever routing id the peer chose, and a node's frames go only to the connection its key
// registered on; a status report about another run of the job is acknowledged and ignored.
#include <gtest/gtest.h>

#include "coordinator/daemon/coordinator_service.h"
#include "service_test_fixture.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

class AgentChannel : public test_support::ServiceTest {
 protected:
  static wire::AgentRegister registration(const std::string& node) {
    return {node, "test", NodeTopology::uniform(node, 1, 4), {}, ""};
  }
  // A frame on connection `route` whose CURVE key is `key_of`'s.
  std::vector<Outgoing> frame(const std::string& route, const std::string& key_of, const wire::Message& m) {
    service_->on_agent_frame(route, wire::encode(m), t_, key_of);
    return service_->end_turn(t_);
  }
  // A submission and what its turn sent (the job starts at once on the free node).
  std::vector<Outgoing> submit_turn() {
    wire::SubmitRequest r;
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    service_->on_client_frame("c", wire::encode(r), t_, net::PeerCredentials{0, 0, 1});
    return service_->end_turn(t_);
  }
  JobId submit() {
    (void)submit_turn();
    return JobId(1);
  }
  // As `queue` shows it (a finished job has left the core).
  std::optional<JobState> state(JobId id) {
    wire::JobQuery q;
    q.jobs = {id};
    q.include_finished = true;
    service_->on_client_frame("q", wire::encode(q), t_, net::PeerCredentials{0, 0, 1});
    for (const Outgoing& o : service_->end_turn(t_)) {
      if (o.channel != Channel::kClients || o.peer != "q") continue;
      auto m = wire::decode(o.frame);
      if (m && std::holds_alternative<wire::JobQueryReply>(*m) &&
          !std::get<wire::JobQueryReply>(*m).jobs.empty()) {
        return std::get<wire::JobQueryReply>(*m).jobs.front().state;
      }
    }
    return std::nullopt;
  }
  template <typename M>
  static std::vector<std::pair<std::string, M>> sent(const std::vector<Outgoing>& out) {
    std::vector<std::pair<std::string, M>> got;
    for (const Outgoing& o : out) {
      if (o.channel != Channel::kAgents) continue;
      if (auto m = wire::decode(o.frame); m && std::holds_alternative<M>(*m))
        got.emplace_back(o.route, std::get<M>(*m));
    }
    return got;
  }
  wire::JobStatusUpdate status(JobId id, JobState s, std::optional<std::int32_t> attempt) {
    wire::JobStatusUpdate u;
    u.node = "n1";
    u.seq = ++seq_;
    u.job = id;
    u.state = s;
    if (is_terminal(s)) u.exit_code = s == JobState::kCompleted ? 0 : 1;
    u.time = t_;
    u.attempt = attempt;
    return u;
  }
  std::uint64_t seq_ = 0;
};

// Item 2's attack, in the service: n2's key on a connection that calls itself "n1" while n1's
// agent is away is n2, is refused as n1, and n1's launch goes only to n1's own connection.
TEST_F(AgentChannel, ANodesJobGoesToTheConnectionItsKeyRegisteredOnNeverToOneNamedAfterIt) {
  auto out = frame("n1.3f9a", "n1", registration("n1"));
  ASSERT_EQ(sent<wire::Ack>(out).size(), 1u);
  EXPECT_EQ(sent<wire::Ack>(out)[0].first, "n1.3f9a");
  // The impostor: its claims to be n1 are refused unanswered.
  EXPECT_TRUE(frame("n1", "n2", registration("n1")).empty());
  EXPECT_TRUE(frame("n1", "n2", wire::Heartbeat{"n1", 1, t_}).empty());
  EXPECT_EQ(service_->counters().impostor_frames, 2u);
  out = submit_turn();
  const auto launches = sent<wire::LaunchJob>(out);
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0].first, "n1.3f9a") << "n1's job must go to n1's key's connection";
}

TEST_F(AgentChannel, ASecondRegistrationOfTheKeyReplacesTheConnectionAndClosesTheOld) {
  (void)frame("n1.old", "n1", registration("n1"));
  // A heartbeat on a connection the key has not registered on is told to register, there.
  auto out = frame("n1.new", "n1", wire::Heartbeat{"n1", 1, t_});
  ASSERT_EQ(sent<wire::ErrorReply>(out).size(), 1u);
  EXPECT_EQ(sent<wire::ErrorReply>(out)[0].first, "n1.new");
  EXPECT_EQ(sent<wire::ErrorReply>(out)[0].second.code, ErrorCode::kFailedPrecondition);
  out = frame("n1.new", "n1", registration("n1"));
  const auto errors = sent<wire::ErrorReply>(out);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].first, "n1.old");
  EXPECT_EQ(errors[0].second.code, ErrorCode::kPermissionDenied);
  ASSERT_EQ(sent<wire::Ack>(out).size(), 1u);
  EXPECT_EQ(sent<wire::Ack>(out)[0].first, "n1.new");
  // The old connection is served no more: its heartbeat gets nothing back.
  EXPECT_TRUE(frame("n1.old", "n1", wire::Heartbeat{"n1", 2, t_}).empty());
  out = frame("n1.new", "n1", wire::Heartbeat{"n1", 3, t_});
  ASSERT_EQ(sent<wire::HeartbeatReply>(out).size(), 1u);
  EXPECT_EQ(sent<wire::HeartbeatReply>(out)[0].first, "n1.new");
}

// Item 5: after an agent restart lost its job's run 0, the job is requeued and runs again
// (run 1); run 0's exit report, resent late, must not end run 1.
TEST_F(AgentChannel, AStatusReportAboutAnEarlierRunIsAcknowledgedAndIgnored) {
  (void)frame("n1.a", "n1", registration("n1"));
  const JobId id = submit();
  ASSERT_EQ(state(id), JobState::kRunning);
  (void)frame("n1.b", "n1", registration("n1"));  // the agent restarted without the job
  for (int i = 0; i < 4; ++i) {
    t_ = t_ + config_.coordinator.heartbeat_timeout;
    (void)frame("n1.b", "n1", wire::Heartbeat{"n1", static_cast<std::uint64_t>(10 + i), t_});
    service_->on_timer(t_);
    (void)service_->end_turn(t_);
  }
  const JobRecord* rec = service_->scheduler().job(id);
  ASSERT_NE(rec, nullptr);
  ASSERT_EQ(rec->requeue_count, 1);
  ASSERT_EQ(rec->state, JobState::kRunning) << "run 1 started on the free node";

  const wire::JobStatusUpdate stale = status(id, JobState::kFailed, 0);
  auto out = frame("n1.b", "n1", stale);
  const auto acks = sent<wire::Ack>(out);
  ASSERT_EQ(acks.size(), 1u) << "acknowledged, so that the agent's outbox lets it go";
  EXPECT_EQ(acks[0].second.seq, stale.seq);
  EXPECT_EQ(state(id), JobState::kRunning) << "run 0's end was taken for run 1's";

  // Run 1's own report ends it.
  (void)frame("n1.b", "n1", status(id, JobState::kCompleted, 1));
  EXPECT_EQ(state(id), JobState::kCompleted);
}

TEST_F(AgentChannel, AReportNamingNoRunIsTheCurrentRunsAsFromAnOlderAgent) {
  (void)frame("n1.a", "n1", registration("n1"));
  const JobId id = submit();
  ASSERT_EQ(state(id), JobState::kRunning);
  (void)frame("n1.a", "n1", status(id, JobState::kFailed, std::nullopt));
  EXPECT_EQ(state(id), JobState::kFailed);
}

}  // namespace
}  // namespace fairway::daemon
