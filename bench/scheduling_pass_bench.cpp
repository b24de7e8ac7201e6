// One scheduling pass over a large queue: the figure that decides whether Fairway ever
// needs a depth cap. Nodes are 2 x 14 cores; the machine starts ~90 % busy with running
// jobs whose ends spread over two days, and every pending job is considered.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>

#include "coordinator/core/scheduler.h"
#include "coordinator/core/start_estimate.h"
#include "peak_memory.h"

namespace fairway::bench {
namespace {

JobSpec random_job(std::mt19937_64& rng, std::uint64_t id, Time submit) {
  JobSpec j;
  j.id = JobId(id);
  j.user = "u" + std::to_string(rng() % 500);
  j.account = "a" + std::to_string(rng() % 50);
  const auto roll = rng() % 100;
  if (roll < 60) {
    j.resources.cores = static_cast<std::int32_t>(1 + rng() % 8);
  } else if (roll < 85) {
    j.resources.cores = static_cast<std::int32_t>(9 + rng() % 20);
  } else if (roll < 95) {
    j.resources.cores = static_cast<std::int32_t>(29 + rng() % 84);
  } else {
    j.resources.nodes = static_cast<std::int32_t>(2 + rng() % 15);
    j.resources.cores = 28;
  }
  j.time_limit = Duration::minutes(10 + static_cast<std::int64_t>(rng() % (48 * 60)));
  j.submit_time = submit;
  return j;
}

struct Setup {
  std::unique_ptr<Scheduler> scheduler;
  Time now;
};

Setup make_busy_cluster(std::int64_t nodes, std::int64_t pending, BackfillMode mode) {
  Config c;
  for (std::int64_t i = 0; i < nodes; ++i) {
    c.nodes.push_back(NodeTopology::uniform("n" + std::to_string(i), 2, 14));
  }
  c.scheduler.backfill = mode;
  c.priority.fairshare = 10000;  // exercise the fair-share factor as a real site would
  auto s = std::move(*Scheduler::create(c));
  std::mt19937_64 rng(42);
  std::uint64_t id = 1;
  // Fill about 90 % of the machine with running jobs.
  const std::int64_t target = nodes * 28 * 9 / 10;
  std::int64_t used = 0;
  while (used < target) {
    JobSpec j = random_job(rng, id++, Time());
    if (j.resources.total_cores() + used > target) continue;
    used += j.resources.total_cores();
    (void)s->submit(j, Time());
  }
  s->schedule(Time());
  for (std::int64_t i = 0; i < pending; ++i) {
    (void)s->submit(random_job(rng, id++, Time::from_seconds(1 + i % 600)), Time::from_seconds(600));
  }
  return {std::move(s), Time::from_seconds(600)};
}

void BM_SchedulingPass(benchmark::State& state) {
  const auto mode = static_cast<BackfillMode>(state.range(2));
  std::size_t started = 0, reservations = 0, pending = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Setup setup = make_busy_cluster(state.range(1), state.range(0), mode);
    pending = setup.scheduler->waiting().size();
    state.ResumeTiming();
    PassResult r = setup.scheduler->schedule(setup.now);
    benchmark::DoNotOptimize(r);
    state.PauseTiming();
    started = r.started.size();
    reservations = r.reservations;
    setup.scheduler.reset();
    state.ResumeTiming();
  }
  state.counters["pending"] = static_cast<double>(pending);
  state.counters["started"] = static_cast<double>(started);
  state.counters["reservations"] = static_cast<double>(reservations);
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  state.SetLabel(std::string(to_string(mode)));
}

// sbatch --test-only against the same queue (after its pass): the copy of the scheduler
// and a conservative pass on it, which stall the coordinator's loop while they run.
void BM_EstimateStart(benchmark::State& state) {
  Setup setup = make_busy_cluster(state.range(1), state.range(0), BackfillMode::kEasy);
  setup.scheduler->schedule(setup.now);
  std::mt19937_64 rng(7);
  bool promised = false;
  for (auto _ : state) {
    auto e = estimate_start(*setup.scheduler, random_job(rng, 0, setup.now), setup.now);
    promised = e && e->start.has_value();
    benchmark::DoNotOptimize(e);
  }
  state.counters["promised"] = promised ? 1 : 0;
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}

// Args: pending jobs, nodes.
BENCHMARK(BM_EstimateStart)
    ->Args({10'000, 1'000})
    ->Args({100'000, 10'000})
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);

// Args: pending jobs, nodes, backfill mode.
BENCHMARK(BM_SchedulingPass)
    ->Args({10'000, 1'000, static_cast<int>(BackfillMode::kEasy)})
    ->Args({10'000, 1'000, static_cast<int>(BackfillMode::kConservative)})
    ->Args({100'000, 10'000, static_cast<int>(BackfillMode::kEasy)})
    ->Args({100'000, 10'000, static_cast<int>(BackfillMode::kConservative)})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

}  // namespace
}  // namespace fairway::bench
