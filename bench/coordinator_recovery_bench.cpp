// A coordinator's restart over a big store: CoordinatorService::open reads every job row,
// decodes its request, charges fair-share again and keeps the newest finished jobs' views;
// until it returns, no one is served. Real time, on a disk-backed $TMPDIR (or /tmp).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/stored_request.h"
#include "peak_memory.h"

namespace fairway::bench {
namespace {

using daemon::JobStore;
using daemon::StoredJob;

// A store of `jobs` jobs on 100 nodes of 32 cores: one in a hundred waiting, the rest
// finished, each with a typical sbatch request (a 500-byte script, 25 variables).
void prefill(const std::string& dir, std::uint64_t jobs, benchmark::State& state) {
  auto store = JobStore::open(dir);
  if (!store) {
    state.SkipWithError("open");
    return;
  }
  wire::SubmitRequest request;
  request.spec.name = "sweep";
  request.spec.resources.cores = 8;
  request.spec.time_limit = Duration::hours(2);
  request.program.script = "#!/bin/bash\n#SBATCH -n 8\n" + std::string(470, 'x');
  for (int v = 0; v < 25; ++v)
    request.program.env.emplace_back("VAR" + std::to_string(v), "/opt/site/value/" + std::to_string(v));
  request.program.working_dir = "/home/user/project";
  const Time base = Time::from_seconds(1'700'000'000);
  for (std::uint64_t i = 1; i <= jobs; ++i) {
    if (i % 100'000 == 1 && !(*store)->begin()) state.SkipWithError("begin");
    StoredJob job;
    job.id = JobId(i);
    job.user = "user" + std::to_string(i % 500);
    request.spec.user = job.user;
    request.spec.uid = static_cast<std::uint32_t>(10'000 + i % 500);
    job.request = daemon::encode_stored_request(request);
    job.submit_time = base + Duration::seconds(static_cast<std::int64_t>(i));
    if (i % 100 != 0) {
      job.state = JobState::kCompleted;
      job.start_time = job.submit_time + Duration::seconds(60);
      job.end_time = *job.start_time + Duration::seconds(3600);
      job.allocation = {{"n" + std::to_string(1 + i % 100), {0, 1, 2, 3, 4, 5, 6, 7}, {}}};
      job.exit_code = 0;
    }
    if (!(*store)->insert_job(job)) state.SkipWithError("insert");
    if ((i % 100'000 == 0 || i == jobs) && !(*store)->commit()) state.SkipWithError("commit");
  }
}

void BM_CoordinatorRecovery(benchmark::State& state) {
  const auto jobs = static_cast<std::uint64_t>(state.range(0));
  std::string dir = (std::filesystem::temp_directory_path() / "fairway-recovery-bench-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) std::abort();
  prefill(dir, jobs, state);
  auto config = parse_config(
      "[[nodes]]\nnames = \"n[1-100]\"\nsockets = 2\ncores_per_socket = 16\n"
      "[coordinator]\nstate_dir = \"" +
          dir + "\"\n",
      "bench");
  if (!config) state.SkipWithError(config.error().message.c_str());
  const Time now = Time::from_seconds(1'700'000'000 + static_cast<std::int64_t>(jobs) + 7200);
  for (auto _ : state) {
    if (!config) break;
    auto service = daemon::CoordinatorService::open(*config, now);
    if (!service) {
      state.SkipWithError(service.error().message.c_str());
      break;
    }
    state.PauseTiming();
    service->reset();  // releases the state directory for the next iteration
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(jobs));
  // The process's peak: run one size alone (--benchmark_filter=.../1000000) to read it.
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
BENCHMARK(BM_CoordinatorRecovery)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);

}  // namespace
}  // namespace fairway::bench
