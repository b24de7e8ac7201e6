// choose_victims takes the fewest victims, then the lowest summed priority: the site case
// from issue 37 through the Scheduler, and random small clusters against brute force.
#include "coordinator/core/victim_selection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "coordinator/core/placement.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

// One 16-core node (2 sockets x 8) in "work1" (preemptable) and in "owner" (tier 1).
Config one_node_owner_cluster() {
  Config c = testing::uniform_cluster(1, 2, 8, BackfillMode::kEasy);
  PartitionConfig work;
  work.name = "work1";
  work.is_default = true;
  work.nodes = {"n0"};
  work.preempt = PreemptMode::kRequeue;
  PartitionConfig owner;
  owner.name = "owner";
  owner.nodes = {"n0"};
  owner.priority_tier = 1;
  c.partitions = {work, owner};
  return c;
}

TEST(VictimSelection, OneEightCoreVictimRatherThanTwoFourCoreOnes) {
  auto s = testing::make(one_node_owner_cluster());
  ASSERT_TRUE(s->submit(testing::job(1, 8, 3600), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  // Started later, so cheaper to lose one by one: the old greedy took these two.
  ASSERT_TRUE(s->submit(testing::job(2, 4, 3600, 10), T(10)));
  ASSERT_TRUE(s->submit(testing::job(3, 4, 3600, 10), T(10)));
  ASSERT_EQ(s->schedule(T(10)).started.size(), 2u);
  JobSpec owner = testing::job(4, 8, 3600, 100);
  owner.partition = "owner";
  ASSERT_TRUE(s->submit(owner, T(100)));
  const PassResult r = s->schedule(T(100));
  ASSERT_EQ(r.preempting.size(), 1u);
  EXPECT_EQ(r.preempting[0].victim, JobId(1));
  EXPECT_EQ(r.preempting[0].by, JobId(4));

  ASSERT_TRUE(s->stop_preempted(JobId(1), T(110)));
  const PassResult next = s->schedule(T(110));
  EXPECT_TRUE(std::any_of(next.started.begin(), next.started.end(),
                          [](const JobStart& st) { return st.id == JobId(4); }));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kRunning);
  EXPECT_EQ(s->job(JobId(3))->state, JobState::kRunning);
}

// A random small machine: 1-4 nodes of 1-2 sockets of 2-6 cores, some with GPUs and
// memory, GPU sockets fenced on some; "all" holds every node, "owner" the first few.
struct RandomCluster {
  ClusterState cluster;
  std::vector<JobRecord> jobs;  // running, each allocated
};

ResourceRequest random_request(std::mt19937& rng, bool with_memory) {
  std::uniform_int_distribution<int> shape(0, 5), cores(1, 6), gpus(0, 2), mem(0, 3);
  ResourceRequest r;
  const int s = shape(rng);
  r.nodes = s <= 2 ? 0 : (s <= 4 ? 1 : 2);
  r.cores = r.nodes == 2 ? 1 + cores(rng) / 3 : cores(rng);
  r.gpus = gpus(rng) == 2 ? 1 : 0;
  if (with_memory) r.memory_per_node_mb = 1024 * mem(rng);
  return r;
}

RandomCluster random_cluster(std::mt19937& rng) {
  RandomCluster rc;
  std::uniform_int_distribution<int> nodes(1, 4), sockets(1, 2), cores(2, 6), gpus(0, 1), coin(0, 1);
  const int n = nodes(rng);
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) {
    NodeTopology t =
        NodeTopology::uniform("n" + std::to_string(i), sockets(rng), cores(rng), gpus(rng), "a100");
    if (coin(rng)) t.memory_mb = 8192;
    names.push_back(t.name);
    rc.cluster.add_node(t);
  }
  PlacementConfig placement;
  placement.socket_exclusive_gpus = coin(rng) == 1;
  EXPECT_TRUE(rc.cluster.add_partition("all", names, placement));
  const std::vector<std::string> owner_nodes(names.begin(),
                                             names.begin() + std::uniform_int_distribution<int>(1, n)(rng));
  EXPECT_TRUE(rc.cluster.add_partition("owner", owner_nodes, placement));
  std::uniform_int_distribution<int> priority(0, 4);
  for (std::uint64_t id = 1; id <= 12; ++id) {
    JobRecord j;
    j.spec.id = JobId(id);
    j.spec.resources = random_request(rng, true);
    j.partition = PartitionIndex(0);
    auto a = place_job(rc.cluster, j);
    if (!a) continue;
    rc.cluster.allocate(*a);
    j.allocation = std::move(*a);
    j.state = JobState::kRunning;
    j.priority.total = priority(rng);
    rc.jobs.push_back(std::move(j));
  }
  return rc;
}

struct Cost {
  std::size_t count = 0;
  double priority = 0;
  std::size_t rank_sum = 0;
  auto operator<=>(const Cost&) const = default;
};

// Every subset of the candidates that makes room, the best by (count, priority, rank).
std::optional<Cost> brute_force(ClusterState& cluster, const JobRecord& owner,
                                const std::vector<JobRecord*>& cand) {
  std::optional<Cost> best;
  const std::size_t n = cand.size();
  for (std::uint32_t mask = 1; mask < (1u << n); ++mask) {
    Cost c;
    for (std::size_t i = 0; i < n; ++i) {
      if (!(mask & (1u << i))) continue;
      ++c.count;
      c.priority += cand[i]->priority.total;
      c.rank_sum += i;
    }
    if (best && !(c < *best)) continue;
    for (std::size_t i = 0; i < n; ++i) {
      if (mask & (1u << i)) cluster.release(cand[i]->allocation);
    }
    const bool fits = place_job(cluster, owner).has_value();
    for (std::size_t i = 0; i < n; ++i) {
      if (mask & (1u << i)) cluster.allocate(cand[i]->allocation);
    }
    if (fits) best = c;
  }
  return best;
}

TEST(VictimSelection, FewestThenCheapestAsBruteForceFindsOnRandomClusters) {
  std::mt19937 rng(37);
  int compared = 0;
  int with_choice = 0;
  for (int round = 0; round < 600; ++round) {
    RandomCluster rc = random_cluster(rng);
    if (rc.jobs.empty()) continue;
    JobRecord owner;
    owner.spec.id = JobId(100);
    owner.spec.resources = random_request(rng, true);
    owner.partition = PartitionIndex(1);
    if (place_job(rc.cluster, owner)) continue;  // fits already: nothing to choose
    std::vector<JobRecord*> cand;
    for (JobRecord& j : rc.jobs) cand.push_back(&j);
    std::shuffle(cand.begin(), cand.end(), rng);

    const std::optional<Cost> expected = brute_force(rc.cluster, owner, cand);
    const auto before = rc.cluster.partition(PartitionIndex(0)).free;
    auto choice = choose_victims(rc.cluster, owner, cand);
    ++compared;
    ASSERT_EQ(choice.has_value(), expected.has_value()) << "round " << round;
    if (!choice) {
      EXPECT_EQ(rc.cluster.partition(PartitionIndex(0)).free, before) << "round " << round;
      continue;
    }
    ++with_choice;
    Cost got;
    for (const JobRecord* v : choice->victims) {
      ++got.count;
      got.priority += v->priority.total;
      got.rank_sum += static_cast<std::size_t>(std::find(cand.begin(), cand.end(), v) - cand.begin());
    }
    EXPECT_EQ(got, *expected) << "round " << round << ": " << got.count << " victims, priority "
                              << got.priority << "; best " << expected->count << ", " << expected->priority;
    // Left with the victims released and the owner placed: undo and check it was real.
    rc.cluster.release(choice->allocation);
    for (const JobRecord* v : choice->victims) rc.cluster.allocate(v->allocation);
    EXPECT_EQ(rc.cluster.partition(PartitionIndex(0)).free, before) << "round " << round;
  }
  // The generator must produce real cases, some with and some without a choice.
  EXPECT_GT(compared, 200);
  EXPECT_GT(with_choice, 100);
  EXPECT_LT(with_choice, compared);
}

}  // namespace
}  // namespace fairway
