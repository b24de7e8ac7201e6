// Sigma2's worked example (seed 001, "Job Priorities"), run by the real core with the
// shipped profile examples/profiles/sigma2.toml.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

Config sigma2() {
  return testing::profile("sigma2");
}

// The machine is full with a week-long job, so every job of the example waits and its
// reservation (or lack of one) is visible.
class Sigma2Example : public ::testing::Test {
 protected:
  void SetUp() override {
    s_ = testing::make(sigma2());
    JobSpec blocker = testing::job(1, 32000, 7 * 86400);
    ASSERT_TRUE(s_->submit(blocker, T(0)));
    ASSERT_EQ(s_->schedule(T(0)).started.size(), 1u);
    std::uint64_t id = 10;
    for (const char* qos : {"devel", "short", "normal", "unpri", "optimist"}) {
      JobSpec j = testing::job(id, 32, 3600);
      j.qos = qos;
      ASSERT_TRUE(s_->submit(j, T(0)));
      ids_[qos] = id++;
    }
    JobSpec bigmem = testing::job(id, 32, 3600);  // names no job type: the normal QOS
    ASSERT_TRUE(s_->submit(bigmem, T(0)));
    ids_["default"] = id;
  }
  const JobRecord& job(const std::string& qos) const { return *s_->job(JobId(ids_.at(qos))); }
  bool reserved(const std::string& qos) const { return job(qos).reserved_start.has_value(); }

  std::unique_ptr<Scheduler> s_;
  std::map<std::string, std::uint64_t> ids_;
};

TEST_F(Sigma2Example, ReservationsComeAfterTheDocumentedWaits) {
  const std::int64_t hour = 3600;
  s_->schedule(T(0));
  EXPECT_DOUBLE_EQ(job("devel").priority.total, 20000);
  EXPECT_TRUE(reserved("devel")) << "devel jobs get a reservation directly";
  EXPECT_FALSE(reserved("short"));

  s_->schedule(T(2 * hour - 60));
  EXPECT_FALSE(reserved("short")) << "1 minute short of 20000";
  s_->schedule(T(2 * hour));
  EXPECT_DOUBLE_EQ(job("short").priority.total, 20000);
  EXPECT_TRUE(reserved("short")) << "short jobs: reservation in 2 hours";
  EXPECT_FALSE(reserved("normal"));

  s_->schedule(T(4 * hour));
  EXPECT_TRUE(reserved("normal")) << "normal jobs: reservation in 4 hours";
  EXPECT_TRUE(reserved("default")) << "a job naming no type is a normal job";
  EXPECT_FALSE(reserved("unpri"));

  s_->schedule(T(16 * hour - 60));
  EXPECT_FALSE(reserved("unpri"));
  s_->schedule(T(16 * hour));
  EXPECT_TRUE(reserved("unpri")) << "unpri jobs: reservation in 16 hours";

  s_->schedule(T(30 * 86400));
  EXPECT_DOUBLE_EQ(job("optimist").priority.total, 10080) << "optimist ends at 10,080";
  EXPECT_FALSE(reserved("optimist")) << "optimist jobs never get a reservation";
}

// "Before it gets a reservation, the queue system backfiller is free to start any other
// job that can start now, even if that will delay the job." One node is free; a 10-hour
// optimist job fits there now but would delay a whole-machine job due at t=2h.
bool optimist_backfills_past(const char* waiting_qos) {
  auto s = testing::make(sigma2());
  EXPECT_TRUE(s->submit(testing::job(1, 32000 - 32, 2 * 3600), T(0)));
  s->schedule(T(0));
  JobSpec whole = testing::job(2, 32000, 3600);
  whole.qos = waiting_qos;
  EXPECT_TRUE(s->submit(whole, T(0)));
  JobSpec small = testing::job(3, 32, 10 * 3600);
  small.qos = "optimist";
  EXPECT_TRUE(s->submit(small, T(0)));
  const PassResult r = s->schedule(T(60));
  if (std::string(waiting_qos) == "devel") {
    EXPECT_TRUE(s->job(JobId(3))->why.has(PendingReason::kReservationConflict));
  }
  return r.started.size() == 1 && r.started[0].id == JobId(3);
}

TEST(Sigma2, UnreservedJobsMayBeDelayedReservedOnesNever) {
  EXPECT_TRUE(optimist_backfills_past("normal")) << "normal is below 20000 for 4 hours";
  EXPECT_FALSE(optimist_backfills_past("devel")) << "devel holds a reservation at once";
}

}  // namespace
}  // namespace fairway
