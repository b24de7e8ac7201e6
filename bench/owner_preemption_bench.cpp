// The cost of preemption in a scheduling pass at 10,000 nodes: a full machine of
// preemptable jobs and owner jobs of several shapes arriving, each choosing its victims
// (victim_selection.h). Args: nodes, owner jobs; 0 owner jobs is the pass without them.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>

#include "coordinator/core/scheduler.h"

namespace fairway::bench {
namespace {

Config owner_machine(std::int64_t nodes) {
  Config c;
  PartitionConfig general;
  general.name = "general";
  general.is_default = true;
  general.preempt = PreemptMode::kRequeue;
  PartitionConfig owner;
  owner.name = "owner";
  owner.priority_tier = 1;
  for (std::int64_t i = 0; i < nodes; ++i) {
    c.nodes.push_back(NodeTopology::uniform("n" + std::to_string(i), 2, 14));
    general.nodes.push_back(c.nodes.back().name);
    owner.nodes.push_back(c.nodes.back().name);
  }
  c.partitions = {general, owner};
  c.scheduler.backfill = BackfillMode::kEasy;
  c.priority.fairshare = 10000;
  return c;
}

// Mostly one-node jobs of 1-28 cores, some of 2-4 whole nodes; users spread so that
// fair-share gives them different priorities.
JobSpec general_job(std::mt19937_64& rng, std::uint64_t id, std::int32_t max_cores) {
  JobSpec j;
  j.id = JobId(id);
  j.user = "u" + std::to_string(rng() % 300);
  j.account = "a" + std::to_string(rng() % 30);
  j.partition = "general";
  if (rng() % 100 < 3 && max_cores >= 4 * 28) {
    j.resources.nodes = static_cast<std::int32_t>(2 + rng() % 3);
    j.resources.cores = 28;
  } else {
    j.resources.cores = static_cast<std::int32_t>(1 + rng() % std::min<std::int32_t>(28, max_cores));
  }
  j.time_limit = Duration::hours(1 + static_cast<std::int64_t>(rng() % 48));
  return j;
}

// The owner shapes that matter to the search: a few cores of one node, a whole node, four
// whole nodes, and cores spread freely.
JobSpec owner_job(std::uint64_t id, std::int64_t k) {
  JobSpec j;
  j.id = JobId(id);
  j.user = "owner";
  j.account = "lab";
  j.partition = "owner";
  j.time_limit = Duration::hours(4);
  j.submit_time = Time::from_seconds(500);
  switch (k % 4) {
    case 0:
      j.resources.nodes = 1;
      j.resources.cores = 8;
      break;
    case 1:
      j.resources.nodes = 1;
      j.resources.cores = 28;
      break;
    case 2:
      j.resources.nodes = 4;
      j.resources.cores = 28;
      break;
    default:
      j.resources.cores = 40;
      break;
  }
  return j;
}

std::unique_ptr<Scheduler> full_machine(std::int64_t nodes) {
  auto s = std::move(*Scheduler::create(owner_machine(nodes)));
  std::mt19937_64 rng(37);
  std::uint64_t id = 1;
  std::int64_t left = nodes * 28;
  while (left > 0) {
    JobSpec j = general_job(rng, id++, static_cast<std::int32_t>(std::min<std::int64_t>(left, 4 * 28)));
    left -= j.resources.total_cores();
    (void)s->submit(j, Time());
  }
  s->schedule(Time());
  return s;
}

void BM_OwnerPreemptionPass(benchmark::State& state) {
  std::size_t victims = 0;
  std::size_t running = 0;
  std::size_t owners_started = 0;     // fitted without preemption
  std::size_t owners_preempting = 0;  // waiting for the victims they chose
  for (auto _ : state) {
    state.PauseTiming();
    auto s = full_machine(state.range(0));
    running = s->running().size();
    for (std::int64_t k = 0; k < state.range(1); ++k) {
      (void)s->submit(owner_job(1'000'000 + static_cast<std::uint64_t>(k), k), Time::from_seconds(500));
    }
    state.ResumeTiming();
    PassResult r = s->schedule(Time::from_seconds(600));
    benchmark::DoNotOptimize(r);
    state.PauseTiming();
    victims = r.preempting.size();
    owners_started = 0;
    owners_preempting = 0;
    for (const JobStart& st : r.started) owners_started += st.id.value() >= 1'000'000;
    for (std::int64_t k = 0; k < state.range(1); ++k) {
      const JobRecord* o = s->job(JobId(1'000'000 + static_cast<std::uint64_t>(k)));
      owners_preempting += o != nullptr && o->victims_stopping > 0;
    }
    s.reset();
    state.ResumeTiming();
  }
  state.counters["running"] = static_cast<double>(running);
  state.counters["victims"] = static_cast<double>(victims);
  state.counters["owners_started"] = static_cast<double>(owners_started);
  state.counters["owners_preempting"] = static_cast<double>(owners_preempting);
}

BENCHMARK(BM_OwnerPreemptionPass)
    ->Args({10'000, 0})
    ->Args({10'000, 4})
    ->Args({10'000, 40})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

}  // namespace
}  // namespace fairway::bench
