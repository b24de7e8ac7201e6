// HPC2N Kebnekaise's policy (seed 003), run by the real core with the shipped profile
// examples/profiles/kebnekaise.toml.
#include <gtest/gtest.h>

#include <cmath>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;
constexpr auto job = testing::account_job;
constexpr std::int64_t kDay = 86400;
constexpr const char* kProject = "hpc2n-2024-001";

std::unique_ptr<Scheduler> kebnekaise() {
  return testing::make(testing::profile("kebnekaise"));
}

// "Job_priority = 1000000 * (fair-share_factor)"; "the job will NOT rise in priority just
// due to sitting in the queue for a long time".
TEST(Kebnekaise, PriorityIsAMillionTimesTheFairShareFactorWithNoAge) {
  auto s = kebnekaise();
  ASSERT_TRUE(s->submit(job(1, "heavy", "p1", 28, 3600), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(3600)));
  // Fill the partition so the next jobs wait and keep their breakdown.
  ASSERT_TRUE(s->submit(job(2, "filler", "p0", 464 * 28, kDay), T(3600)));
  s->schedule(T(3600));
  ASSERT_TRUE(s->submit(job(3, "heavy", "p1", 28, 3600), T(3600)));
  ASSERT_TRUE(s->submit(job(4, "light", "p2", 28, 3600), T(3600)));
  s->schedule(T(3600 + kDay));
  const JobRecord* heavy = s->job(JobId(3));
  const JobRecord* light = s->job(JobId(4));
  const Time now = T(3600 + kDay);
  EXPECT_DOUBLE_EQ(heavy->priority.age, 0.0);
  EXPECT_NEAR(heavy->priority.total, 1e6 * s->fair_share().factor(heavy->association, now), 1e-6);
  EXPECT_NEAR(light->priority.total, 1e6 * s->fair_share().factor(light->association, now), 1e-6);
  EXPECT_LT(heavy->priority.total, light->priority.total);
}

// "The fairshare weight decays gradually over 50 days, meaning that jobs older than 50
// days does not count": usage fades linearly, counting half after 25 days and nothing
// after 50.
TEST(Kebnekaise, UsageDecaysGraduallyOverFiftyDays) {
  auto s = kebnekaise();
  ASSERT_TRUE(s->submit(job(1, "u", "p1", 28, 3600), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(3600)));
  const auto a = s->job(JobId(1))->association;
  const double used = 28.0 * 3600;
  const double w = 50.0 * kDay;
  // Its mean age at the end is half an hour.
  EXPECT_NEAR(s->fair_share().user_usage(a, T(3600)), used * (1 - 1800 / w), 1e-6);
  EXPECT_NEAR(s->fair_share().user_usage(a, T(25 * kDay + 1800)), used * 0.5, 1e-6);
  EXPECT_NEAR(s->fair_share().user_usage(a, T(40 * kDay + 1800)), used * 0.2, 1e-6);
  EXPECT_DOUBLE_EQ(s->fair_share().user_usage(a, T(3600 + 50 * kDay)), 0.0);
}

// Priority = 1,000,000 x fair-share factor: a user whose usage is older than 50 days is
// back to the full factor (1,000,000), while one who used the machine since is not.
TEST(Kebnekaise, AUserWhoseUsageIsOlderThanFiftyDaysGetsTheFullFactorBack) {
  auto s = kebnekaise();
  ASSERT_TRUE(s->submit(job(1, "old", "p1", 28, 3600), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(3600)));
  ASSERT_TRUE(s->submit(job(2, "recent", "p2", 28, 3600), T(40 * kDay)));
  s->schedule(T(40 * kDay));
  ASSERT_TRUE(s->finish(JobId(2), JobState::kCompleted, T(40 * kDay + 3600)));
  // Keep the next jobs waiting so that they keep their breakdown.
  ASSERT_TRUE(s->submit(job(3, "filler", "p0", 464 * 28, kDay), T(45 * kDay)));
  s->schedule(T(45 * kDay));
  ASSERT_TRUE(s->submit(job(4, "old", "p1", 28, 3600), T(45 * kDay)));
  ASSERT_TRUE(s->submit(job(5, "recent", "p2", 28, 3600), T(45 * kDay)));
  s->schedule(T(45 * kDay));
  EXPECT_LT(s->job(JobId(4))->priority.total, 1e6) << "day 45: the old usage still counts";
  const Time later = T(50 * kDay + 7200);
  s->schedule(later);
  EXPECT_DOUBLE_EQ(s->job(JobId(4))->priority.total, 1e6);
  EXPECT_LT(s->job(JobId(5))->priority.total, 1e6);
}

// "As long as you ask for less than the number of cores than what there are in one node
// (28 cores), you will only be allocated for that exact number of cores. If you ask for
// more than 28 cores, you will be allocated whole nodes and accounted for that."
TEST(Kebnekaise, WholeNodesAboveOneNode) {
  auto s = kebnekaise();
  ASSERT_TRUE(s->submit(job(1, "u", "p1", 20, 3600), T(0)));
  ASSERT_TRUE(s->submit(job(2, "u", "p1", 40, 3600), T(0)));
  s->schedule(T(0));
  const JobRecord* small = s->job(JobId(1));
  EXPECT_EQ(small->allocation.total_cores(), 20);
  EXPECT_EQ(small->allocation.nodes.size(), 1u);
  const JobRecord* big = s->job(JobId(2));
  EXPECT_EQ(big->spec.resources.nodes, 2);
  EXPECT_EQ(big->allocation.total_cores(), 56);
  EXPECT_DOUBLE_EQ(big->billing_rate, 56.0) << "accounted as two whole nodes";
}

// "Your project will be accounted for 2 GPU-hours/hour if you ask for 1 V100", "6 GPU-hours
// /hour if you ask for 1 A100": the card's socket of cores comes with it, unbilled; a CPU
// job is billed per core.
TEST(Kebnekaise, GpusAreBilledByModel) {
  auto s = kebnekaise();
  JobSpec v = job(1, "u", "p1", 14, 3600);
  v.resources.gpus = 1;
  v.resources.gpu_type = "v100";
  JobSpec a = job(2, "u", "p1", 24, 3600);
  a.partition = "amd_gpu";
  a.resources.gpus = 1;
  a.resources.gpu_type = "a100";
  ASSERT_TRUE(s->submit(v, T(0)));
  ASSERT_TRUE(s->submit(a, T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->submit(job(3, "u", "p1", 10, 3600), T(0)));
  s->schedule(T(0));
  EXPECT_DOUBLE_EQ(s->job(JobId(1))->billing_rate, 2.0);
  EXPECT_DOUBLE_EQ(s->job(JobId(2))->billing_rate, 6.0);
  EXPECT_DOUBLE_EQ(s->job(JobId(3))->billing_rate, 10.0);
}

// "The sum of the size (remaining-runtime * number-of-cores) of all running jobs must be
// less than the monthly allocation ... your job will be pending with
// Reason=AssociationResourceLimit ... until enough running jobs have finished. A job cannot
// start if it asks for more than your total monthly allocation."
TEST(Kebnekaise, RunningJobsStayWithinTheMonthlyAllocation) {
  auto s = kebnekaise();
  // 10 whole nodes for 7 days: 169,344,000 of the project's 180,000,000 core-seconds.
  ASSERT_TRUE(s->submit(job(1, "u", kProject, 280, 7 * kDay), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->submit(job(2, "u", kProject, 28, 7 * kDay), T(60)));  // +16,934,400
  s->schedule(T(60));
  EXPECT_TRUE(s->job(JobId(2))->why.has(PendingReason::kMaxPsHard));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending);
  // A day later the running job owes 6 days: 145,152,000 + 16,934,400 fits.
  PassResult r = s->schedule(T(kDay));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(2));
  // Other projects are not limited by this one's allocation.
  ASSERT_TRUE(s->submit(job(3, "v", "p9", 280, 7 * kDay), T(kDay)));
  EXPECT_EQ(s->schedule(T(kDay)).started.size(), 1u);
  // More than the whole allocation on its own: refused at submission.
  auto st = s->submit(job(4, "u", kProject, 28 * 40, 7 * kDay), T(kDay));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("exceeds the MAXPS hard limit 180000000"), std::string::npos)
      << st.error().message;
}

}  // namespace
}  // namespace fairway
