// The implicit SWF machine and the packed records against what the per-core model gave:
// a trace sample replayed on 64-core counting nodes starts and ends every job as on
// single-core nodes, and the schedule written from packed records is, byte for byte, the
// one written before records were packed.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

#include "coordinator/sim/schedule_record.h"
#include "coordinator/sim/simulation.h"
#include "coordinator/sim/workload.h"
#include "shared/config/config_file.h"

namespace fairway::sim {
namespace {

// lublin_256's first 3,000 jobs: a queue that is rarely empty (mean wait 8 h under EASY).
Workload sample() {
  auto w = read_swf(std::string(FAIRWAY_SHARED_DIR) + "/traces/lublin_256.swf.gz");
  EXPECT_TRUE(w.has_value()) << w.error().message;
  w->jobs.resize(3000);
  return *w;
}

Config easy() {
  auto c = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/sim/easy.toml");
  EXPECT_TRUE(c.has_value()) << c.error().message;
  return *c;
}

Config single_core_nodes(Config c, std::int32_t count) {
  for (std::int32_t i = 1; i <= count; ++i)
    c.nodes.push_back(NodeTopology::uniform("n" + std::to_string(i), 1, 1));
  return c;
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325u;
  for (const char ch : text) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3u;
  }
  return h;
}

TEST(CountingMachineTest, AnSwfMachineIsBuiltFromCountingNodes) {
  const Workload w = sample();
  const auto machine = machine_for_workload(easy(), w);
  ASSERT_TRUE(machine.has_value());
  ASSERT_EQ(machine->nodes.size(), 4u);  // 256 processors
  for (const NodeTopology& n : machine->nodes) EXPECT_EQ(n.total_cores(), kCoresPerCountingNode);

  // A job asking whole nodes keeps the single-core model: there a node is a processor.
  Workload with_nodes = w;
  with_nodes.jobs[7].spec.resources.nodes = 2;
  with_nodes.jobs[7].spec.resources.cores = 1;
  const auto per_core = machine_for_workload(easy(), with_nodes);
  ASSERT_TRUE(per_core.has_value());
  EXPECT_EQ(per_core->nodes.size(), 256u);
}

TEST(CountingMachineTest, CountingNodesStartEveryJobWhenSingleCoreNodesDo) {
  const Workload w = sample();
  const auto counting = simulate(easy(), w);
  const auto per_core = simulate(single_core_nodes(easy(), 256), w);
  ASSERT_TRUE(counting.has_value() && per_core.has_value());
  ASSERT_EQ(counting->records.size(), per_core->records.size());
  std::map<std::uint64_t, const ScheduleRecord*> by_id;
  for (const ScheduleRecord& r : per_core->records) by_id[r.id.value()] = &r;
  std::int64_t waited = 0;
  for (const ScheduleRecord& r : counting->records) {
    const ScheduleRecord& want = *by_id.at(r.id.value());
    ASSERT_EQ(r.start, want.start) << "job " << r.id.value();
    ASSERT_EQ(r.end, want.end) << "job " << r.id.value();
    ASSERT_EQ(r.allocation.total_cores(), want.allocation.total_cores()) << "job " << r.id.value();
    waited += (r.start - r.submit).count();
  }
  EXPECT_GT(waited, 3000 * 3600) << "the sample must make jobs wait, or it proves nothing";
}

// The digest is of SCHEDULE.jsonl as fairway-sim wrote it for this sample before records
// were packed (each kept a per-core Allocation). A scheduling change that moves a job
// changes it: then check the new schedule is the one meant, and write the new digest.
// Last written when a job's nodes came to be kept in Slurm's host order: every one of the
// 3,000 jobs kept its start, end, state, node count and core count; only which of these
// identical one-core nodes a job got moved (the free list follows the order nodes are
// released in).
TEST(CountingMachineTest, PackedRecordsWriteTheSchedulePerCoreRecordsWrote) {
  const auto run = simulate(single_core_nodes(easy(), 256), sample());
  ASSERT_TRUE(run.has_value());
  std::string text;
  for (const ScheduleRecord& r : run->records) text += schedule_record_json(r, run->nodes) + "\n";
  EXPECT_EQ(text.size(), 2818556u);
  EXPECT_EQ(fnv1a(text), 0x4b8f67b108fea483u);
}

}  // namespace
}  // namespace fairway::sim
