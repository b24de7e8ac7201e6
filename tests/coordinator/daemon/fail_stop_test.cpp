// A failed commit stops the coordinator (fail-stop, issue 14): nothing of the failed turn is
// acknowledged, and after recovery from the store nothing of it took effect while everything
// acknowledged before it is there. The commit fails at each step: submit, start, finish, cancel.
#include <gtest/gtest.h>

#include <unistd.h>

#include "coordinator/daemon/coordinator_service.h"
#include "service_test_fixture.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

class FailStop : public test_support::ServiceTest {
 protected:
  std::vector<Outgoing> end_turn() { return service_->end_turn(t_); }
  void submit(const std::string& token = "") {
    wire::SubmitRequest r;
    r.client_token = token;
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    service_->on_client_frame("c", wire::encode(r), t_, net::PeerCredentials{0, 0, 1});
  }
  static std::optional<JobId> submitted(const std::vector<Outgoing>& out) {
    for (const Outgoing& o : out) {
      if (auto m = wire::decode(o.frame); m && std::holds_alternative<wire::SubmitReply>(*m)) {
        return std::get<wire::SubmitReply>(*m).job;
      }
    }
    return std::nullopt;
  }
  void register_n1() {
    wire::AgentRegister reg{"n1", "test", NodeTopology::uniform("n1", 1, 4), {}, ""};
    service_->on_agent_frame("n1", wire::encode(reg), t_, "n1");
  }
  JobId submit_pending() {
    submit();
    auto id = submitted(end_turn());
    EXPECT_TRUE(id.has_value());
    return id.value_or(JobId{});
  }
  // nullopt: unknown, or ended and no longer held by the core.
  std::optional<JobState> state(JobId id) const {
    const JobRecord* r = service_->scheduler().job(id);
    return r ? std::optional(r->state) : std::nullopt;
  }
  void expect_stopped(const std::vector<Outgoing>& out) {
    EXPECT_TRUE(out.empty()) << "a turn whose commit failed acknowledged something";
    EXPECT_FALSE(service_->failed()) << "the service did not stop";
    t_ = t_ + Duration::seconds(1);
    register_n1();
    EXPECT_TRUE(end_turn().empty()) << "a stopped service answered";
  }
};

TEST_F(FailStop, SubmitWhoseCommitFailsIsNeitherAcknowledgedNorStored) {
  const JobId before = submit_pending();
  service_->fail_next_commit_for_test();
  submit();
  expect_stopped(end_turn());
  reopen();
  EXPECT_EQ(state(before), JobState::kPending) << "an acknowledged job was lost";
  EXPECT_EQ(state(JobId{before.value() + 1}), std::nullopt);
  // The failed turn told no one its id (its store transaction, id counter included, rolled
  // back): a retry gets an id after every acknowledged one.
  submit();
  auto retry = submitted(end_turn());
  ASSERT_TRUE(retry);
  EXPECT_GT(retry->value(), before.value());
}

TEST_F(FailStop, StartWhoseCommitFailsLaunchesNothingAndTheJobStaysPending) {
  const JobId id = submit_pending();
  service_->fail_next_commit_for_test();
  register_n1();
  expect_stopped(end_turn());
  reopen();
  EXPECT_EQ(state(id), JobState::kPending);
}

TEST_F(FailStop, FinishWhoseCommitFailsIsNotAckedAndTheResentStatusIsTakenAfterRestart) {
  register_n1();
  submit();
  auto id = submitted(end_turn());
  ASSERT_TRUE(id);
  ASSERT_EQ(state(*id), JobState::kRunning);
  wire::JobStatusUpdate done;
  done.node = "n1";
  done.seq = 1;
  done.job = *id;
  done.state = JobState::kCompleted;
  done.exit_code = 0;
  done.time = t_;
  service_->fail_next_commit_for_test();
  service_->on_agent_frame("n1", wire::encode(done), t_, "n1");
  expect_stopped(end_turn());
  reopen();
  EXPECT_EQ(state(*id), JobState::kRunning) << "the store must still say running: the agent was not acked";
  register_n1();
  service_->on_agent_frame("n1", wire::encode(done), t_, "n1");
  (void)end_turn();
  EXPECT_NE(state(*id), JobState::kRunning) << "the resent completion was not taken";
}

TEST_F(FailStop, CancelWhoseCommitFailsDoesNotTakeEffect) {
  const JobId id = submit_pending();
  wire::JobControl cancel{wire::JobAction::kCancel, {id}, "root"};
  service_->fail_next_commit_for_test();
  service_->on_client_frame("c", wire::encode(cancel), t_, net::PeerCredentials{0, 0, 1});
  expect_stopped(end_turn());
  reopen();
  EXPECT_EQ(state(id), JobState::kPending) << "an unacknowledged cancel took effect";
  service_->on_client_frame("c", wire::encode(cancel), t_, net::PeerCredentials{0, 0, 1});
  (void)end_turn();
  EXPECT_NE(state(id), JobState::kPending) << "a retried cancel must work";
}

// The case: a submit whose commit failed left its token pointing at an id that was
// never stored, so the client's retry was told of a job that did not exist. The retry
// after the restart must make one job that exists, and a second retry must find it.
TEST_F(FailStop, ARetriedSubmitAfterAFailedCommitGetsAJobThatExists) {
  const JobId before = submit_pending();
  service_->fail_next_commit_for_test();
  submit("retry-me");
  expect_stopped(end_turn());
  reopen();
  submit("retry-me");
  auto retry = submitted(end_turn());
  ASSERT_TRUE(retry);
  EXPECT_GT(retry->value(), before.value());
  EXPECT_EQ(state(*retry), JobState::kPending) << "the retry was told of a job that does not exist";
  submit("retry-me");
  EXPECT_EQ(submitted(end_turn()), retry) << "a second retry made a second job";
  reopen();
  submit("retry-me");
  EXPECT_EQ(submitted(end_turn()), retry) << "the token was not restored from the store";
}

}  // namespace
}  // namespace fairway::daemon
