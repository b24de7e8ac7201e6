// Whole-trace replay of HPC2N (202,871 jobs) through fairway-sim's loop: the figure that
// says how fast policies can be tuned. Loading the trace is reported separately.
#include <benchmark/benchmark.h>

#include "coordinator/sim/metrics.h"
#include "coordinator/sim/simulation.h"
#include "counting_easy_baseline.h"
#include "peak_memory.h"
#include "shared/config/config_file.h"

namespace fairway::bench {
namespace {

const char* kTrace = FAIRWAY_SHARED_DIR "/traces/HPC2N-2002-2.2-cln.swf.gz";

void BM_LoadHpc2n(benchmark::State& state) {
  for (auto _ : state) {
    auto w = sim::read_swf(kTrace);
    if (!w) {
      state.SkipWithError(w.error().message.c_str());
      return;
    }
    state.counters["jobs"] = static_cast<double>(w->jobs.size());
  }
}
BENCHMARK(BM_LoadHpc2n)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_ReplayHpc2n(benchmark::State& state) {
  auto w = sim::read_swf(kTrace);
  if (!w) {
    state.SkipWithError(w.error().message.c_str());
    return;
  }
  Config c;
  c.scheduler.backfill = static_cast<BackfillMode>(state.range(0));
  for (auto _ : state) {
    auto r = sim::simulate(c, *w);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    state.counters["jobs"] = static_cast<double>(r->records.size());
    state.counters["passes"] = static_cast<double>(r->passes);
  }
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  state.SetLabel(std::string(to_string(c.scheduler.backfill)));
}
BENCHMARK(BM_ReplayHpc2n)
    ->Arg(static_cast<int>(BackfillMode::kEasy))
    ->Arg(static_cast<int>(BackfillMode::kConservative))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// A CEA-Curie-sized replay (the scale target: ~300k jobs, ~100k processors), made
// from the public traces: LLNL Thunder with every job 23x wider, then HPC2N 384x wider,
// each on 92,184 processors, HPC2N's jobs submitted after LLNL's last. 321,662 jobs.
const sim::Workload& curie_sized() {
  static const sim::Workload w = [] {
    sim::Workload out;
    out.max_procs = 92184;
    std::int64_t offset = 0;
    std::uint64_t id = 0;
    for (const auto& [file, factor] :
         {std::pair{"LLNL-Thunder-2007-1.1-cln", 23}, std::pair{"HPC2N-2002-2.2-cln", 384}}) {
      auto part = sim::read_swf(std::string(FAIRWAY_SHARED_DIR) + "/traces/" + file + ".swf.gz");
      if (!part) return out;
      std::int64_t last = 0;
      for (sim::WorkloadJob& j : part->jobs) {
        last = std::max(last, j.spec.submit_time.seconds());
        j.spec.submit_time = Time::from_seconds(j.spec.submit_time.seconds() + offset);
        j.spec.id = JobId(++id);
        j.spec.resources.cores *= factor;
        out.jobs.push_back(std::move(j));
      }
      offset += last + 1;
    }
    return out;
  }();
  return w;
}

// Run one at a time (--benchmark_filter) for a peak RSS of its own.
void BM_ReplayCurieSized(benchmark::State& state) {
  const sim::Workload& w = curie_sized();
  if (w.jobs.empty()) {
    state.SkipWithError("the traces did not load");
    return;
  }
  // The plain configs fairway-sim users replay with.
  const char* policy = state.range(0) == 0 ? "easy" : "conservative";
  auto c = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/sim/" + policy + ".toml");
  if (!c) {
    state.SkipWithError(c.error().message.c_str());
    return;
  }
  for (auto _ : state) {
    auto r = sim::simulate(*c, w);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    state.counters["jobs"] = static_cast<double>(r->records.size());
    state.counters["mean_wait_s"] = sim::summarize(r->records, w.max_procs, 0).wait_mean_s;
  }
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  state.SetLabel(policy);
}
BENCHMARK(BM_ReplayCurieSized)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1);

// The yardstick: the same jobs through a bare processor-counting EASY.
void BM_CountingEasyCurieSized(benchmark::State& state) {
  const sim::Workload& w = curie_sized();
  for (auto _ : state) {
    const CountingEasyResult r = counting_easy(w, w.max_procs);
    state.counters["mean_wait_s"] = r.mean_wait_s;
  }
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(BM_CountingEasyCurieSized)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace fairway::bench
