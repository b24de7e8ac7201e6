// [coordinator] keep_finished: finished jobs leave the store once they ended that long
// ago, checked hourly by the timer; waiting ones never do.
#include <gtest/gtest.h>

#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon {
namespace {

class Retention : public test_support::CoordinatorFixture {
 protected:
  void SetUp() override {
    open("[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n", "keep_finished = \"2h\"\n");
  }
  wire::Message ask(const wire::Message& m) { return CoordinatorFixture::ask(m, 0, false); }
  JobId held_job() {
    wire::SubmitRequest r = request();
    r.client_token.clear();
    r.spec.hold = true;
    return std::get<wire::SubmitReply>(ask(r)).job;
  }
  std::size_t in_history(JobId id) {
    wire::JobQuery q;
    q.from_store = true;
    q.include_finished = true;
    q.jobs = {id};
    return std::get<wire::JobQueryReply>(ask(q)).jobs.size();
  }
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
