// After a coordinator restart, a running job whose node has not registered again may still
// be running there until that agent's lease runs out: it is given up only then, never at
// the mere heartbeat timeout (issue 9: nothing runs twice). Synchronous, fake time.
#include <gtest/gtest.h>

#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon {
namespace {

class RestartPatience : public test_support::CoordinatorFixture {};

TEST_F(RestartPatience, AnUnregisteredNodesJobWaitsForTheLeaseNotTheHeartbeatTimeout) {
  open("[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n",
       "heartbeat_timeout = 10\n"
       "[agent]\nheartbeat_interval = 5\ncoordinator_lease = 60\nkill_grace = 30\n");
  ASSERT_FALSE(HasFatalFailure());
  register_node("n1", 4);
  wire::SubmitRequest r = request();
  r.client_token.clear();
  const JobId id = submit(r);
  ASSERT_NE(id.value(), 0u);
  ASSERT_EQ(service_->scheduler().job(id)->state, JobState::kRunning);

  // The coordinator restarts; n1's agent does not come back (a partition).
  t_ = t_ + Duration::seconds(1);
  reopen();
  ASSERT_FALSE(HasFatalFailure());
  const Time t = t_;
  ASSERT_EQ(service_->scheduler().job(id)->state, JobState::kRunning);
  service_->on_timer(t + Duration::seconds(11));  // past the heartbeat timeout
  (void)service_->end_turn(t + Duration::seconds(11));
  EXPECT_EQ(service_->scheduler().job(id)->state, JobState::kRunning) << "requeued while it may still run";
  service_->on_timer(t + Duration::seconds(96));        // lease 60 + grace 30 + heartbeat 5: the
  (void)service_->end_turn(t + Duration::seconds(96));  // keepers' 2 s margin is not over yet
  EXPECT_EQ(service_->scheduler().job(id)->state, JobState::kRunning);
  service_->on_timer(t + Duration::seconds(98));
  (void)service_->end_turn(t + Duration::seconds(98));
  const JobRecord* rec = service_->scheduler().job(id);
  ASSERT_NE(rec, nullptr);
  EXPECT_NE(rec->state, JobState::kRunning);
}

}  // namespace
}  // namespace fairway::daemon
