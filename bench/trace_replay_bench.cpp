// Whole-trace replay of HPC2N (202,871 jobs) through fairway-sim's loop: the figure that
// says how fast policies can be tuned. Loading the trace is reported separately.
#include <benchmark/benchmark.h>

#include "coordinator/sim/metrics.h"
#include "coordinator/sim/simulation.h"
#include "peak_memory.h"

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

}  // namespace
}  // namespace fairway::bench
