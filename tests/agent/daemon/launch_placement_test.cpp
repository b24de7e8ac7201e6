// Where a launch goes on the node, on the fake host: GPUs' visible ids, the cores' PUs when
// binding, the cgroup's limits (the devices of the GPUs a job does not hold), the holder.
#include "agent/daemon/launch_placement.h"

#include <gtest/gtest.h>

#include "tests/support/fake_agent_host.h"

namespace fairway::agent {
namespace {

using testing::FakeHost;
using testing::Machine;

DiscoveredNode two_cores_two_gpus() {
  DiscoveredNode node;
  node.topology = NodeTopology::uniform("n1", 1, 2);
  node.core_pus = {{0, 4}, {1, 5}};
  node.gpus = {GpuIdentity{}, GpuIdentity{}};
  node.gpus[0].visible_id = "GPU-a";
  node.gpus[1].visible_id = "GPU-b";
  return node;
}

TEST(LaunchPlacement, AJobGetsItsGpusVisibleIdsAndWhenBindingItsCoresPus) {
  const DiscoveredNode node = two_cores_two_gpus();
  LaunchRequest bound;
  place_on_node(bound, {1}, {1, 7}, node, true);
  // A GPU the node does not know keeps its index.
  EXPECT_EQ(bound.gpu_visible_ids, (std::vector<std::string>{"GPU-b", "7"}));
  EXPECT_EQ(bound.bind_pus, (std::vector<std::int32_t>{1, 5}));
  LaunchRequest model;
  place_on_node(model, {0, 1}, {}, node, false);
  EXPECT_TRUE(model.gpu_visible_ids.empty());
  EXPECT_TRUE(model.bind_pus.empty());
}

TEST(LaunchPlacement, AJobsCgroupDeniesTheDevicesOfTheGpusItDoesNotHold) {
  const DiscoveredNode node = two_cores_two_gpus();
  auto machine = std::make_shared<Machine>();
  machine->gpu_devices = {{DeviceNumber{195, 0}}, {DeviceNumber{195, 1}, DeviceNumber{195, 255}}};
  const FakeHost host(machine);
  const CgroupLimits holds_0 = cgroup_limits(JobId(3), {0, 4}, {0}, std::int64_t{1} << 30, 64, node, host);
  EXPECT_EQ(holds_0.job, JobId(3));
  EXPECT_EQ(holds_0.cpus, (std::vector<std::int32_t>{0, 4}));
  EXPECT_EQ(holds_0.memory_bytes, std::int64_t{1} << 30);
  EXPECT_EQ(holds_0.max_pids, 64);
  EXPECT_EQ(holds_0.denied_devices, (std::vector<DeviceNumber>{{195, 1}, {195, 255}}));
  const CgroupLimits holds_none = cgroup_limits(JobId(4), {}, {}, std::nullopt, 0, node, host);
  EXPECT_EQ(holds_none.denied_devices, (std::vector<DeviceNumber>{{195, 0}, {195, 1}, {195, 255}}));
  EXPECT_FALSE(holds_none.max_pids);
  EXPECT_FALSE(holds_none.memory_bytes);
}

TEST(LaunchPlacement, TheHolderIsTheRelayHoldingTheCgroupWithNoOutput) {
  const wire::JobProgram p = holder_program("/usr/lib/fairway/fairway-step");
  EXPECT_EQ(p.argv, (std::vector<std::string>{"/usr/lib/fairway/fairway-step", "--hold"}));
  EXPECT_EQ(p.working_dir, "/");
  EXPECT_EQ(p.stdout_path, "/dev/null");
  EXPECT_EQ(p.stderr_path, "/dev/null");
}

}  // namespace
}  // namespace fairway::agent
