// GPU-socket fencing (seed 003: "If someone is using the GPU on a socket, then it is not
// possible for someone else to use the normal CPU cores of that socket at the same time")
// on Kebnekaise-like V100 nodes: 2 sockets x 14 cores, one V100 per socket.
#include <gtest/gtest.h>

#include "coordinator/core/placement.h"
#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

constexpr PartitionIndex kBatch{0};

ClusterState v100_nodes(int n, bool exclusive = true) {
  ClusterState c;
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) {
    names.push_back("g" + std::to_string(i));
    c.add_node(NodeTopology::uniform(names.back(), 2, 14, 1, "v100"));
  }
  PlacementConfig pl;
  pl.socket_exclusive_gpus = exclusive;
  EXPECT_TRUE(c.add_partition("batch", names, pl));
  return c;
}

ResourceRequest gpu_job(std::int32_t cores, std::int32_t gpus = 1) {
  return {0, cores, gpus, "v100"};
}
ResourceRequest cpu_job(std::int32_t cores) {
  return {0, cores, 0, {}};
}

Allocation place_and_allocate(ClusterState& c, const ResourceRequest& r) {
  auto a = place_job(c, kBatch, r);
  EXPECT_TRUE(a.has_value());
  if (!a) return {};
  c.allocate(*a);
  return *a;
}

std::int32_t socket_of(std::int32_t core) {
  return core / 14;
}

TEST(PlacementSocketFence, GpuJobKeepsTheRestOfItsSocket) {
  ClusterState c = v100_nodes(1);
  const Allocation gpu = place_and_allocate(c, gpu_job(4));
  ASSERT_EQ(gpu.nodes.size(), 1u);
  ASSERT_EQ(gpu.nodes[0].gpus.size(), 1u);
  const std::int32_t socket =
      c.node(NodeIndex(0)).topology.gpus[static_cast<std::size_t>(gpu.nodes[0].gpus[0])].socket;
  for (std::int32_t core : gpu.nodes[0].cores) EXPECT_EQ(socket_of(core), socket);
  // 4 cores used, 10 fenced: only the other socket's 14 cores and its GPU are free.
  EXPECT_EQ(c.node(NodeIndex(0)).free_cores, 14);
  EXPECT_EQ(c.partition(kBatch).free, (ResourceAmount{14, 1, kUntrackedMemoryMb}));
  EXPECT_EQ(c.amount_in_partition(gpu, kBatch), (ResourceAmount{14, 1})) << "the job gives back its fence";
  EXPECT_FALSE(place_job(c, kBatch, cpu_job(15))) << "fenced cores are not free";
  const Allocation cpu = place_and_allocate(c, cpu_job(14));
  for (std::int32_t core : cpu.nodes[0].cores) EXPECT_NE(socket_of(core), socket);
}

TEST(PlacementSocketFence, ReleasingTheGpuJobLiftsTheFence) {
  ClusterState c = v100_nodes(1);
  const Allocation gpu = place_and_allocate(c, gpu_job(4));
  c.release(gpu);
  EXPECT_EQ(c.node(NodeIndex(0)).free_cores, 28);
  EXPECT_EQ(c.partition(kBatch).free, (ResourceAmount{28, 2, kUntrackedMemoryMb}));
  EXPECT_TRUE(place_job(c, kBatch, cpu_job(28)));
}

TEST(PlacementSocketFence, NoGpuOnASocketWhereAnotherJobHoldsCores) {
  ClusterState c = v100_nodes(1);
  const Allocation cpu = place_and_allocate(c, cpu_job(4));
  const std::int32_t busy = socket_of(cpu.nodes[0].cores[0]);
  for (std::int32_t core : cpu.nodes[0].cores) EXPECT_EQ(socket_of(core), busy);
  const Allocation gpu = place_and_allocate(c, gpu_job(2));
  const std::int32_t g = gpu.nodes[0].gpus[0];
  EXPECT_NE(c.node(NodeIndex(0)).topology.gpus[static_cast<std::size_t>(g)].socket, busy);
  // One GPU is still unused, but its socket has another job's cores: the GPU job could
  // not keep that socket, so no GPU job may start there.
  EXPECT_EQ(c.partition(kBatch).free.gpus, 1);
  EXPECT_FALSE(place_job(c, kBatch, gpu_job(1)));
  EXPECT_TRUE(place_job(c, kBatch, cpu_job(10))) << "CPU jobs still fit beside the CPU job";
}

TEST(PlacementSocketFence, CpuJobsShareASocketBeforeBlockingAnotherGpu) {
  ClusterState c = v100_nodes(1);
  const Allocation first = place_and_allocate(c, cpu_job(4));
  const Allocation second = place_and_allocate(c, cpu_job(6));
  const std::int32_t socket = socket_of(first.nodes[0].cores[0]);
  for (std::int32_t core : second.nodes[0].cores) EXPECT_EQ(socket_of(core), socket);
  EXPECT_TRUE(place_job(c, kBatch, gpu_job(14))) << "the other socket is still whole";
}

TEST(PlacementSocketFence, GpuJobLargerThanItsSocketSpillsAndBlocksTheOtherGpu) {
  ClusterState c = v100_nodes(1);
  const Allocation gpu = place_and_allocate(c, gpu_job(20));
  EXPECT_EQ(gpu.nodes[0].cores.size(), 20u);
  EXPECT_EQ(c.node(NodeIndex(0)).free_cores, 8);
  EXPECT_FALSE(place_job(c, kBatch, gpu_job(1)));
  EXPECT_TRUE(place_job(c, kBatch, cpu_job(8)));
}

TEST(PlacementSocketFence, OffForThePartitionMeansNoFence) {
  ClusterState c = v100_nodes(1, /*exclusive=*/false);
  place_and_allocate(c, gpu_job(4));
  EXPECT_EQ(c.node(NodeIndex(0)).free_cores, 24);
  EXPECT_TRUE(place_job(c, kBatch, cpu_job(24)));
}

TEST(PlacementSocketFence, ANodeFencesWhenAnyOfItsPartitionsAsks) {
  ClusterState c;
  c.add_node(NodeTopology::uniform("g0", 2, 14, 1, "v100"));
  PlacementConfig off;
  off.socket_exclusive_gpus = false;
  ASSERT_TRUE(c.add_partition("shared", {"g0"}, off));
  ASSERT_TRUE(c.add_partition("gpu", {"g0"}, PlacementConfig{}));
  auto a = place_job(c, PartitionIndex(0), gpu_job(4));
  ASSERT_TRUE(a);
  c.allocate(*a);
  EXPECT_EQ(c.partition(PartitionIndex(0)).free.cores, 14);
  EXPECT_EQ(c.partition(PartitionIndex(1)).free.cores, 14);
}

TEST(PlacementSocketFence, CpuOnlyNodesAreNotAffected) {
  ClusterState c;
  c.add_node(NodeTopology::uniform("c0", 2, 14));
  ASSERT_TRUE(c.add_partition("batch", {"c0"}, PlacementConfig{}));
  place_and_allocate(c, cpu_job(4));
  EXPECT_EQ(c.node(NodeIndex(0)).free_cores, 24);
  EXPECT_FALSE(c.node(NodeIndex(0)).socket_exclusive);
}

Config one_v100_node() {
  Config c = testing::uniform_cluster(1, 2, 14, BackfillMode::kEasy, 1, "v100");
  PartitionConfig batch;
  batch.name = "batch";
  batch.is_default = true;
  c.partitions.push_back(batch);
  return c;
}

// The backfill engine sees the fence: a job's expected need includes it, the running GPU
// job's end gives the fenced cores back, so a whole-node job is reserved exactly then.
TEST(PlacementSocketFence, BackfillPlansWithTheFencedCores) {
  auto s = testing::make(one_v100_node());
  JobSpec gpu = testing::job(1, 4, 3600);
  gpu.resources.gpus = 1;
  gpu.resources.gpu_type = "v100";
  ASSERT_TRUE(s->submit(gpu, T(0)));
  EXPECT_EQ(s->job(JobId(1))->need(), (ResourceAmount{14, 1}));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  EXPECT_DOUBLE_EQ(s->job(JobId(1))->billing_rate, 4.0) << "billed for its cores, not the fence";

  ASSERT_TRUE(s->submit(testing::job(2, 20, 3600), T(10)));  // 20 > the 14 left unfenced
  ASSERT_TRUE(s->submit(testing::job(3, 14, 1800), T(10)));  // fits the free socket, ends first
  PassResult r = s->schedule(T(10));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(3));
  const JobRecord* big = s->job(JobId(2));
  EXPECT_TRUE(big->why.has(PendingReason::kResources));
  EXPECT_FALSE(big->why.has(PendingReason::kFragmented));
  ASSERT_TRUE(big->reserved_start.has_value());
  EXPECT_EQ(*big->reserved_start, T(3600)) << "the GPU job's end frees its 14 cores";

  ASSERT_TRUE(s->finish(JobId(3), JobState::kCompleted, T(1810)));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(3600)));
  r = s->schedule(T(3600));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(2));
}

}  // namespace
}  // namespace fairway
