#include "coordinator/core/priority.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/coordinator/core/test_cluster.h"

namespace fairway {
namespace {

TEST(Priority, ExpansionFactorIsWaitPlusLimitOverLimit) {
  EXPECT_DOUBLE_EQ(expansion_factor(Duration(), Duration::hours(1)), 1.0);
  EXPECT_DOUBLE_EQ(expansion_factor(Duration::hours(1), Duration::hours(1)), 2.0);
  EXPECT_DOUBLE_EQ(expansion_factor(Duration::hours(1), Duration::hours(4)), 1.25);
  // A short job gains faster than a long one for the same wait.
  EXPECT_GT(expansion_factor(Duration::hours(1), Duration::minutes(10)),
            expansion_factor(Duration::hours(1), Duration::hours(10)));
  EXPECT_DOUBLE_EQ(expansion_factor(Duration::seconds(9), Duration()), 10.0) << "0 counts as 1 s";
  EXPECT_DOUBLE_EQ(expansion_factor(Duration::seconds(-5), Duration::seconds(10)), 1.0);
}

TEST(Priority, QueueTargetFactorGrowsExponentiallyTowardTheTarget) {
  const Duration target = Duration::hours(4);
  EXPECT_DOUBLE_EQ(queue_target_factor(Duration(), target), 0.0);
  EXPECT_DOUBLE_EQ(queue_target_factor(target, target), 1.0);
  EXPECT_NEAR(queue_target_factor(Duration::hours(2), target), std::expm1(2.0) / std::expm1(4.0), 1e-12);
  // Each further quarter of the target multiplies the gain: convex, not linear.
  const double q1 = queue_target_factor(Duration::hours(1), target);
  const double q2 = queue_target_factor(Duration::hours(2), target);
  const double q3 = queue_target_factor(Duration::hours(3), target);
  EXPECT_GT(q3 - q2, 2 * (q2 - q1));
  // Bounded beyond twice the target.
  EXPECT_DOUBLE_EQ(queue_target_factor(Duration::hours(8), target), std::expm1(8.0) / std::expm1(4.0));
  EXPECT_DOUBLE_EQ(queue_target_factor(Duration::hours(80), target), std::expm1(8.0) / std::expm1(4.0));
  EXPECT_DOUBLE_EQ(queue_target_factor(Duration::hours(80), Duration::infinite()), 0.0);
}

TEST(Priority, EveryFactorShowsInTheBreakdownAndTheTotal) {
  PriorityWeights w;
  w.age_per_minute = 2;
  w.expansion_factor = 100;
  w.bypass = 7;
  w.queue_target = 10;
  w.queue_target_time = Duration::hours(2);
  PriorityInputs in;
  in.waited = Duration::hours(2);
  in.time_limit = Duration::hours(1);
  in.bypass_count = 3;
  in.node_bin_boost = Duration::days(5);
  in.overuse_penalty = Duration::days(30);
  const PriorityBreakdown b = compute_priority(w, in);
  EXPECT_DOUBLE_EQ(b.age, 240);
  EXPECT_DOUBLE_EQ(b.expansion, 300);
  EXPECT_DOUBLE_EQ(b.bypass, 21);
  EXPECT_DOUBLE_EQ(b.queue_target, 10);
  EXPECT_DOUBLE_EQ(b.node_bin, 2.0 * 5 * 1440);
  EXPECT_DOUBLE_EQ(b.overuse, -2.0 * 30 * 1440);
  EXPECT_DOUBLE_EQ(b.total, b.age + b.fairshare + b.size + b.partition + b.qos + b.node_bin + b.overuse +
                                b.expansion + b.bypass + b.queue_target);
  // The same terms before their weights, as sprio -n shows them.
  EXPECT_DOUBLE_EQ(b.raw.age, 120);
  EXPECT_DOUBLE_EQ(b.raw.expansion, 3);
  EXPECT_DOUBLE_EQ(b.raw.bypass, 3);
  EXPECT_DOUBLE_EQ(b.raw.queue_target, 1);
  EXPECT_DOUBLE_EQ(b.raw.node_bin, 5.0 * 1440);
  EXPECT_DOUBLE_EQ(b.raw.overuse, -30.0 * 1440);
}

// The node-bin boost is apparent waiting, but not capped by age_cap (Titan's 15 days are
// on top of whatever the job waited).
TEST(Priority, AgeCapDoesNotCapTheBinBoost) {
  PriorityWeights w;
  w.age_cap = Duration::days(1);
  PriorityInputs in;
  in.waited = Duration::days(3);
  in.node_bin_boost = Duration::days(15);
  const PriorityBreakdown b = compute_priority(w, in);
  EXPECT_DOUBLE_EQ(b.age, 1440);
  EXPECT_DOUBLE_EQ(b.node_bin, 15 * 1440);
}

TEST(Priority, UnweightedMauiFactorsAreZero) {
  PriorityInputs in;
  in.waited = Duration::hours(5);
  in.time_limit = Duration::hours(1);
  in.bypass_count = 9;
  const PriorityBreakdown b = compute_priority(PriorityWeights{}, in);
  EXPECT_DOUBLE_EQ(b.expansion, 0);
  EXPECT_DOUBLE_EQ(b.bypass, 0);
  EXPECT_DOUBLE_EQ(b.queue_target, 0);
}

std::string term_names(const Config& c, const PriorityBreakdown& b) {
  std::string out;
  for (const PriorityTerm& t : priority_terms(c, b)) out += std::string(t.name) + " ";
  return out;
}

TEST(Priority, TermsListEveryFactorTheProfileUsesEvenAtZero) {
  // Titan ages by node-count bins and penalises overuse: both show for a job in bin 5,
  // whose boost is 0, and for an account within its allocation.
  EXPECT_EQ(term_names(testing::profile("titan"), PriorityBreakdown{}),
            "age fairshare partition node_bin overuse ");
  // Akka: Maui's expansion factor and bypass count.
  const std::string akka = term_names(testing::profile("hpc2n-akka"), PriorityBreakdown{});
  EXPECT_NE(akka.find("expansion bypass resources "), std::string::npos) << akka;
}

TEST(Priority, ResourcesRequestedCountCoresAndGpus) {
  PriorityWeights w;
  w.resources_per_core = 1;
  w.resources_per_gpu = 50;
  PriorityInputs in;
  in.cores = 28;
  in.gpus = 2;
  const PriorityBreakdown b = compute_priority(w, in);
  EXPECT_DOUBLE_EQ(b.resources, 128);
  EXPECT_DOUBLE_EQ(b.total, b.resources);
}

TEST(Priority, AnUnconfiguredTermShowsOnlyWhenItCounts) {
  Config plain;
  PriorityBreakdown b;
  EXPECT_EQ(term_names(plain, b), "age partition qos ");
  b.bypass = 120;
  const auto terms = priority_terms(plain, b);
  ASSERT_EQ(terms.size(), 4u);
  EXPECT_EQ(terms.back().name, "bypass");
  EXPECT_DOUBLE_EQ(terms.back().value, 120);
}

}  // namespace
}  // namespace fairway
