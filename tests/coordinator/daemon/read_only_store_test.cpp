// A store that cannot be written (a full disk): the service rebuilt from it serves queries,
// refuses new work with the reason, acknowledges nothing it cannot store, and says when a
// probe write succeeds again (issue 9). Synchronous, fake time.
#include <gtest/gtest.h>

#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon {
namespace {

class ReadOnlyStore : public test_support::CoordinatorFixture {
 protected:
  void SetUp() override { configure("[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n"); }
  void open(const std::string& read_only_because = {}) { reopen(read_only_because); }
  std::vector<wire::Message> client(const wire::Message& m) {
    send(m);
    return turn_all();
  }
  std::vector<wire::Message> agent(const wire::Message& m) { return from_agent(m); }
};

TEST_F(ReadOnlyStore, QueriesWorkNewWorkIsRefusedWithTheReasonAndNothingIsLost) {
  open();
  agent(wire::AgentRegister{"n1", "test", NodeTopology::uniform("n1", 1, 4), {}, ""});
  auto replies = client(request(4));  // starts on n1
  ASSERT_FALSE(replies.empty());
  const JobId running = std::get<wire::SubmitReply>(replies.front()).job;
  replies = client(request(4));  // waits
  const JobId waiting = std::get<wire::SubmitReply>(replies.front()).job;

  // The disk fills: the next commit fails, and the daemon rebuilds the service read-only.
  service_->fail_next_commit_for_test();
  (void)client(request(1));
  ASSERT_FALSE(service_->failed());
  open("database or disk is full");
  EXPECT_TRUE(service_->read_only());

  wire::JobQuery q;
  replies = client(q);
  ASSERT_EQ(replies.size(), 1u);
  const auto* listing = std::get_if<wire::JobQueryReply>(&replies.front());
  ASSERT_NE(listing, nullptr);
  EXPECT_EQ(listing->jobs.size(), 2u) << "acknowledged jobs must survive";

  for (const wire::Message& m :
       {wire::Message(request(1)),
        wire::Message(wire::JobControl{wire::JobAction::kCancel, {waiting}, "root"})}) {
    replies = client(m);
    ASSERT_EQ(replies.size(), 1u);
    const auto* e = std::get_if<wire::ErrorReply>(&replies.front());
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->code, ErrorCode::kUnavailable);
    EXPECT_NE(e->message.find("cannot write its job store (database or disk is full)"), std::string::npos)
        << e->message;
  }
  EXPECT_EQ(service_->scheduler().job(waiting)->state, JobState::kPending);

  // The agent re-registers; its report that the job ended is neither applied nor
  // acknowledged, so the agent keeps it for later.
  agent(wire::AgentRegister{
      "n1", "test", NodeTopology::uniform("n1", 1, 4), {{running, {0, 1, 2, 3}, {}, t_, 1}}, ""});
  wire::JobStatusUpdate done;
  done.node = "n1";
  done.seq = 7;
  done.job = running;
  done.state = JobState::kCompleted;
  done.exit_code = 0;
  replies = agent(done);
  for (const auto& m : replies)
    EXPECT_FALSE(std::holds_alternative<wire::Ack>(m)) << "acknowledged a report it cannot store";
  EXPECT_EQ(service_->scheduler().job(running)->state, JobState::kRunning);
  EXPECT_FALSE(service_->pass_wanted());

  // The store takes writes again (here it always could): the next probe says so.
  EXPECT_FALSE(service_->writable_again());
  t_ = t_ + Duration::seconds(6);
  service_->on_timer(t_);
  EXPECT_TRUE(service_->writable_again());

  // Reopened normally, the report the agent resends is applied and acknowledged.
  open();
  agent(wire::AgentRegister{
      "n1", "test", NodeTopology::uniform("n1", 1, 4), {{running, {0, 1, 2, 3}, {}, t_, 1}}, ""});
  replies = agent(done);
  bool acked = false;
  for (const auto& m : replies) acked = acked || std::holds_alternative<wire::Ack>(m);
  EXPECT_TRUE(acked);
  const JobRecord* r = service_->scheduler().job(running);
  EXPECT_TRUE(r == nullptr || r->state == JobState::kCompleted);
}

}  // namespace
}  // namespace fairway::daemon
