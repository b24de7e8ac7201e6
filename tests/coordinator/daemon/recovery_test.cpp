// Recovery of a running job the core cannot take back: a store whose two running rows hold
// the same cores (it disagrees with itself) restores the first; the lifecycle ends the
// other as node_fail (NotRestored), shown with why and no run, its row left as found.
#include <gtest/gtest.h>

#include "coordinator/daemon/job_store.h"
#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon {
namespace {

class Recovery : public test_support::CoordinatorFixture {};

TEST_F(Recovery, ARunningRowOnCoresAnotherHoldsEndsAsNodeFailAndItsRowIsKept) {
  open("[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n");
  ASSERT_FALSE(HasFatalFailure());
  register_node("n1", 4);
  const JobId first = submit(request(2));
  const JobId second = submit(request(2));
  (void)turn();
  ASSERT_EQ(service_->scheduler().job(first)->state, JobState::kRunning);
  ASSERT_EQ(service_->scheduler().job(second)->state, JobState::kRunning);
  service_.reset();
  // The second's row now names the first's cores.
  StoredJob kept;
  {
    auto store = JobStore::open(dir_);
    ASSERT_TRUE(store) << store.error().message;
    std::vector<StoredJob> rows;
    ASSERT_TRUE((*store)->scan_jobs([&](StoredJob&& row) -> Status {
      rows.push_back(std::move(row));
      return ok_status();
    }));
    ASSERT_EQ(rows.size(), 2U);
    rows[1].allocation = rows[0].allocation;
    ASSERT_TRUE((*store)->begin());
    ASSERT_TRUE((*store)->update_job(rows[1]));
    ASSERT_TRUE((*store)->commit());
    kept = rows[1];
  }
  t_ = t_ + Duration::seconds(1);
  {
    reopen();
    ASSERT_NE(service_->scheduler().job(first), nullptr);
    EXPECT_EQ(service_->scheduler().job(first)->state, JobState::kRunning);
    EXPECT_EQ(service_->scheduler().job(second), nullptr);  // never taken back by the core
    wire::JobQuery q;
    q.jobs = {second};
    q.include_finished = true;
    const wire::Message m = ask(q);
    const auto* reply = std::get_if<wire::JobQueryReply>(&m);
    ASSERT_NE(reply, nullptr);
    ASSERT_EQ(reply->jobs.size(), 1U);
    const wire::JobView& v = reply->jobs.front();
    EXPECT_EQ(v.state, JobState::kNodeFail);
    EXPECT_TRUE(v.state_reason.starts_with("could not be restored: ")) << v.state_reason;
    EXPECT_EQ(v.end_time, t_);
    EXPECT_FALSE(v.start_time);  // what it held is the first's
    EXPECT_TRUE(v.allocation.empty());
    service_.reset();
  }
  // Nothing was stored about it: the next start reads the same row.
  auto store = JobStore::open(dir_);
  ASSERT_TRUE(store) << store.error().message;
  ASSERT_TRUE((*store)->scan_jobs([&](StoredJob&& row) -> Status {
    if (row.id == second) {
      EXPECT_EQ(row, kept);
    }
    return ok_status();
  }));
}

}  // namespace
}  // namespace fairway::daemon
