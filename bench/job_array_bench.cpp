// Job arrays at the coordinator: submitting an array of N tasks (checked, stored, the
// reply and the first pass that launches what fits, all in one event-loop turn), and a
// pass over a queue holding that array. The target: a 100,000-task array well under a
// second, and a pass that costs what the tasks that could start cost, not N.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "coordinator/daemon/coordinator_service.h"
#include "peak_memory.h"
#include "shared/wire/codec.h"

namespace fairway::bench {
namespace {

using daemon::CoordinatorService;

class RootCaller final : public daemon::ClientAuthenticator {
 public:
  Result<daemon::Caller> from_kernel(const net::PeerCredentials&) override {
    return daemon::Caller{0, 0, "root", true};
  }
  Result<daemon::Caller> from_munge(std::string_view, std::string_view) override {
    return make_error(ErrorCode::kPermissionDenied, "no munge");
  }
};

// 100 nodes of 28 cores, all registered; a fresh state directory under $TMPDIR.
struct Coordinator {
  std::filesystem::path dir;
  std::unique_ptr<CoordinatorService> service;
  Time now = Time::from_seconds(1'700'000'000);

  Coordinator() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fairway-array-bench-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) std::abort();
    dir = tmpl;
    auto config = parse_config(
        "[[nodes]]\nnames = \"n[001-100]\"\nsockets = 2\ncores_per_socket = 14\n"
        "[coordinator]\nstate_dir = \"" +
            dir.string() + "\"\n",
        "bench");
    if (!config) std::abort();
    auto s = CoordinatorService::open(*config, now, std::make_unique<RootCaller>());
    if (!s) std::abort();
    service = std::move(*s);
    for (int i = 1; i <= 100; ++i) {
      char name[8];
      std::snprintf(name, sizeof name, "n%03d", i);
      wire::AgentRegister reg{name, "bench", NodeTopology::uniform(name, 2, 14), {}, ""};
      service->on_agent_frame(name, wire::encode(reg), now, name);
    }
    (void)service->end_turn(now);
  }
  ~Coordinator() {
    service.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  Coordinator(const Coordinator&) = delete;
  Coordinator& operator=(const Coordinator&) = delete;

  // Returns how many launches the turn sent.
  std::size_t submit_array(std::int64_t tasks) {
    wire::SubmitRequest r;
    r.spec.array = *parse_array_spec("0-" + std::to_string(tasks - 1), kMaxArrayIndex);
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    service->on_client_frame("client", wire::encode(r), now, net::PeerCredentials{0, 0, 1});
    std::size_t launches = 0;
    for (const auto& o : service->end_turn(now)) launches += o.channel == daemon::Channel::kAgents ? 1 : 0;
    return launches;
  }
};

// Args: tasks. Real time: the store's fsync is part of accepting the array.
void BM_SubmitArray(benchmark::State& state) {
  std::size_t launches = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto c = std::make_unique<Coordinator>();
    state.ResumeTiming();
    launches = c->submit_array(state.range(0));
    state.PauseTiming();
    c.reset();
    state.ResumeTiming();
  }
  state.counters["launched"] = static_cast<double>(launches);
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(BM_SubmitArray)
    ->Arg(1'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

// A pass with the machine full and a 100,000-task array waiting behind it: the array
// costs a planning window, not its size.
void BM_PassWithWaitingArray(benchmark::State& state) {
  Coordinator c;
  (void)c.submit_array(state.range(0));  // fills the 2,800 cores; the rest waits
  const Scheduler& s = c.service->scheduler();
  // The monotonic clock stands still (no heartbeats are due); the wall clock moves a
  // pass interval per iteration, so each iteration runs one pass.
  c.service->set_monotonic(c.now);
  for (auto _ : state) {
    c.now = c.now + Duration::minutes(1);
    c.service->on_timer(c.now);
    (void)c.service->end_turn(c.now);
  }
  state.counters["waiting_records"] = static_cast<double>(s.waiting().size());
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(BM_PassWithWaitingArray)->Arg(100'000)->Unit(benchmark::kMillisecond)->Iterations(20);

}  // namespace
}  // namespace fairway::bench
