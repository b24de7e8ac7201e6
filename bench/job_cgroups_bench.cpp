// What a job's cgroup costs the agent per launch: creating it with its limits and opening
// its cgroup.procs files, then removing it at the end (cgroup v1 on the development
// machine). Needs root; reports an error instead of a figure otherwise.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include "agent/os/job_cgroups.h"

namespace fairway::agent {
namespace {

void BM_JobCgroupPrepareAndRemove(benchmark::State& state) {
  CgroupOptions o;
  o.subtree = "fairway-bench-" + std::to_string(::getpid());
  auto g = JobCgroups::open(o);
  if (!g || (*g)->mode() == CgroupMode::kNone) {
    state.SkipWithError(g ? (*g)->description().c_str() : g.error().message.c_str());
    return;
  }
  std::uint64_t id = 1;
  for (auto _ : state) {
    CgroupLimits l{JobId(id), {0}, {}, std::int64_t{256} << 20, {{240, 0}}, std::nullopt};
    auto attach = (*g)->prepare(l);
    if (!attach) {
      state.SkipWithError(attach.error().message.c_str());
      break;
    }
    benchmark::DoNotOptimize(attach->fds().size());
    (void)(*g)->remove(JobId(id++));
  }
  state.SetLabel((*g)->description());
  for (const char* ctrl : {"cpuset", "memory", "devices", "cpuacct", "pids"}) {
    ::rmdir((o.root + "/" + ctrl + "/" + o.subtree).c_str());
  }
}
BENCHMARK(BM_JobCgroupPrepareAndRemove)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace fairway::agent
