#include "agent/core/cgroup_plan.h"

#include <gtest/gtest.h>

namespace fairway::agent {
namespace {

TEST(CgroupPlan, CpuListsFoldRuns) {
  EXPECT_EQ(cpu_list_text({}), "");
  EXPECT_EQ(cpu_list_text({3}), "3");
  EXPECT_EQ(cpu_list_text({8, 0, 1, 2, 3, 11, 10, 3}), "0-3,8,10-11");
}

TEST(CgroupPlan, V1WritesCpusetBeforeAnyTaskAndDeniesOtherGpus) {
  CgroupLimits l{JobId(7), {4, 5, 36, 37}, {0}, std::int64_t{64} << 20, {{195, 1}, {195, 3}}, std::nullopt};
  EXPECT_EQ(cgroup_v1_writes(l), (std::vector<CgroupWrite>{
                                     {"cpuset", "cpuset.mems", "0"},
                                     {"cpuset", "cpuset.cpus", "4-5,36-37"},
                                     {"memory", "memory.limit_in_bytes", "67108864"},
                                     {"memory", "memory.memsw.limit_in_bytes", "67108864"},
                                     {"devices", "devices.deny", "c 195:1 rwm"},
                                     {"devices", "devices.deny", "c 195:3 rwm"},
                                 }));
  l.memory_bytes.reset();
  l.denied_devices.clear();
  EXPECT_EQ(cgroup_v1_writes(l).size(), 2u);  // no limit, no device rule
  l.max_pids = 512;
  EXPECT_EQ(cgroup_v1_writes(l).back(), (CgroupWrite{"pids", "pids.max", "512"}));
  EXPECT_EQ(cgroup_v2_writes(l).back(), (CgroupWrite{"", "pids.max", "512"}));
}

TEST(CgroupPlan, V2WritesNoDeviceFilesAndNoSwap) {
  CgroupLimits l{JobId(7), {0, 1}, {0, 1}, std::int64_t{1} << 30, {{195, 0}}, std::nullopt};
  EXPECT_EQ(cgroup_v2_writes(l), (std::vector<CgroupWrite>{
                                     {"", "cpuset.cpus", "0-1"},
                                     {"", "cpuset.mems", "0-1"},
                                     {"", "memory.max", "1073741824"},
                                     {"", "memory.swap.max", "0"},
                                 }));
  EXPECT_EQ(job_cgroup_name(JobId(42)), "job_42");
}

}  // namespace
}  // namespace fairway::agent
