// fairway-sim: replays a workload trace through the scheduling core in virtual time and
// reports SUMMARY.json figures (interface fixed in docs/architecture.md section 7.1).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <unordered_map>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "coordinator/sim/chart_files.h"
#include "coordinator/sim/metrics.h"
#include "coordinator/sim/schedule_validator.h"
#include "coordinator/sim/simulation.h"
#include "shared/config/config_file.h"

namespace {

constexpr int kExitBadInput = 2;
constexpr int kExitCheckFailed = 3;
constexpr int kExitOutOfMemory = 4;

nlohmann::ordered_json summary_json(const fairway::sim::Summary& s) {
  nlohmann::ordered_json j;
  j["jobs"] = s.jobs;
  j["completed"] = s.completed;
  j["skipped"] = s.skipped;
  j["rejected"] = s.rejected;
  j["makespan_s"] = s.makespan_s;
  j["utilization"] = s.utilization;
  j["wait_mean_s"] = s.wait_mean_s;
  j["wait_p50_s"] = s.wait_p50_s;
  j["wait_p95_s"] = s.wait_p95_s;
  j["wait_p99_s"] = s.wait_p99_s;
  j["wait_max_s"] = s.wait_max_s;
  j["bsld_mean"] = s.bsld_mean;
  j["preemptions"] = s.preemptions;
  j["requeues"] = s.requeues;
  j["sched_passes"] = s.sched_passes;
  j["reservations_cancelled"] = s.reservations_cancelled;
  j["sim_wall_s"] = s.sim_wall_s;
  return j;
}

// A line on stderr, rewritten in place at most once a second: jobs done, the virtual date,
// the rate and the time left, for replays long enough to wonder about.
class ProgressLine {
 public:
  explicit ProgressLine(fairway::Time first_submit) : first_submit_(first_submit) {}
  void operator()(std::size_t submitted, std::size_t finished, std::size_t total, fairway::Time now) {
    const auto wall = std::chrono::steady_clock::now();
    if (wall - last_ < std::chrono::seconds(1)) return;
    last_ = wall;
    const double elapsed = std::chrono::duration<double>(wall - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(finished) / elapsed : 0;
    const double eta = rate > 0 ? static_cast<double>(total - std::min(total, finished)) / rate : 0;
    // SWF times count from the trace's start, so the virtual clock reads as a trace day.
    const double day = static_cast<double>((now - first_submit_).count()) / 86400.0;
    std::fprintf(
        stderr,
        "\rfairway-sim: %zu/%zu jobs done (%zu submitted), trace day %.1f, %.0f jobs/s, about %.0f s left   ",
        finished, total, submitted, day, rate, eta);
    shown_ = true;
  }
  ~ProgressLine() {
    if (shown_) std::fputc('\n', stderr);
  }

 private:
  fairway::Time first_submit_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_ = start_;
  bool shown_ = false;
};

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  // A machine model too big for this host is a clear error, not an abort (std::bad_alloc
  // escaping main).
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fflush(stderr);
    std::cerr << "\nfairway-sim: out of memory: this replay needs more than the host can give. The machine "
                 "model is the usual cause: many single-core [[nodes]] (or, without [[nodes]], jobs that "
                 "ask nodes, GPUs or --mem, which keep the SWF machine one node per processor) cost an "
                 "entry per core; declaring multi-core [[nodes]] of the same total uses far less.\n";
    return kExitOutOfMemory;
  }
}

namespace {

int run(int argc, char** argv) {
  using namespace fairway;
  CLI::App app{"fairway-sim: replay a workload through the Fairway scheduling core"};
  std::string config_path, workload_path, format_name, out_path, schedule_path;
  // On by default: it costs 3-15 % of a replay's time (measured on the HPC2N, LLNL and
  // SDSC traces) and catches a schedule the core should never produce.
  bool check = true;
  std::string queue_partitions;  // a string, not a vector option: GCC 12 warns inside CLI11's split
  app.add_option("--config", config_path, "policy and machine (TOML)")->required();
  app.add_option("--workload", workload_path, "workload trace (.swf, .swf.gz, .jsonl)")->required();
  app.add_option("--format", format_name, "swf or jsonl (default: from the extension)");
  app.add_option("--out", out_path, "write SUMMARY.json here");
  app.add_option("--schedule", schedule_path, "write SCHEDULE.jsonl here");
  app.add_flag(
      "--check,!--no-check", check,
      "validate the produced schedule (the default; --no-check skips it); exit 3 on the first violation");
  bool quiet = false;
  app.add_flag("--quiet", quiet, "no progress line (there is none anyway when stderr is not a terminal)");
  std::string plots_dir, compare_path;
  app.add_option("--plots", plots_dir,
                 "write SVG charts here: utilization, waiting jobs, wait by size, nodes");
  app.add_option("--compare", compare_path, "with --plots: replay under this config too and draw both");
  app.add_option("--queue-partition", queue_partitions,
                 "QUEUE=PARTITION[,...]: SWF jobs of that queue number go to that partition");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : kExitBadInput;
  }

  const auto wall_start = std::chrono::steady_clock::now();
  auto config = load_config_file(config_path);
  if (!config) {
    std::cerr << "fairway-sim: " << config.error().message << '\n';
    return kExitBadInput;
  }
  auto format = format_name.empty() ? sim::workload_format_from_path(workload_path)
                                    : sim::parse_workload_format(format_name);
  if (!format) {
    std::cerr << "fairway-sim: --format: " << format.error().message << '\n';
    return kExitBadInput;
  }
  auto workload = sim::read_workload(workload_path, *format);
  if (!workload) {
    std::cerr << "fairway-sim: " << workload.error().message << '\n';
    return kExitBadInput;
  }
  if (!queue_partitions.empty()) {
    std::vector<std::string> rules;
    for (std::size_t at = 0; at <= queue_partitions.size();) {
      const std::size_t comma = std::min(queue_partitions.find(',', at), queue_partitions.size());
      rules.push_back(queue_partitions.substr(at, comma - at));
      at = comma + 1;
    }
    if (auto st = sim::assign_queue_partitions(*workload, rules, config->partitions); !st) {
      std::cerr << "fairway-sim: " << st.error().message << '\n';
      return kExitBadInput;
    }
  }
  if (const std::string warning = sim::machine_size_warning(*config, *workload); !warning.empty()) {
    std::cerr << "fairway-sim: warning: " << warning << '\n';
  }
  if (workload->skipped > 0) {
    std::cerr << "fairway-sim: skipped " << workload->skipped
              << " SWF jobs with no runtime or no processors (a field of -1, SWF's \"unknown\")\n";
  }
  std::optional<ProgressLine> line;
  sim::ProgressFn progress;
  if (!quiet && ::isatty(2) == 1) {
    line.emplace(workload->jobs.empty() ? Time() : workload->jobs.front().spec.submit_time);
    progress = [&line](std::size_t s, std::size_t f, std::size_t t, Time now) { (*line)(s, f, t, now); };
  }
  auto result = sim::simulate(*config, *workload, progress);
  line.reset();
  if (!result) {
    std::cerr << "fairway-sim: " << result.error().message << '\n';
    return kExitBadInput;
  }
  for (std::size_t i = 0; i < result->rejection_messages.size() && i < 5; ++i) {
    std::cerr << "fairway-sim: rejected " << result->rejection_messages[i] << '\n';
  }
  if (result->rejection_messages.size() > 5) {
    std::cerr << "fairway-sim: ... and " << result->rejection_messages.size() - 5 << " more rejected\n";
  }

  std::int64_t total_cores = 0;
  for (const auto& n : result->nodes) total_cores += n.total_cores();
  const std::int64_t first_submit =
      workload->jobs.empty() ? 0 : workload->jobs.front().spec.submit_time.seconds();
  sim::Summary summary = sim::summarize(result->records, total_cores, first_submit);
  // Job arrays count, and are checked, as the tasks they ran as.
  // Copied only when there are arrays: a 300k-job trace's specs are ~0.3 GB.
  std::optional<sim::Workload> tasks;
  if (sim::has_array_jobs(*workload)) tasks = sim::with_array_tasks(*workload);
  const sim::Workload& as_run = tasks ? *tasks : *workload;
  summary.jobs = static_cast<std::int64_t>(as_run.jobs.size());
  summary.skipped = workload->skipped;
  summary.rejected = static_cast<std::int64_t>(result->rejected.size());
  summary.sched_passes = result->passes;
  summary.reservations_cancelled = static_cast<std::int64_t>(result->reservations_cancelled.size());
  for (const ReservationCancellation& c : result->reservations_cancelled) {
    std::cerr << "fairway-sim: reservation " << c.name << " cancelled at " << c.at.seconds() << ": "
              << c.reason << "\n";
  }

  if (!schedule_path.empty()) {
    std::ofstream f(schedule_path);
    if (!f) {
      std::cerr << "fairway-sim: --schedule: cannot write '" << schedule_path << "'\n";
      return kExitBadInput;
    }
    for (const auto& r : result->records) f << sim::schedule_record_json(r, result->nodes) << '\n';
  }
  summary.sim_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  if (check) {
    sim::ValidationInput in;
    in.nodes = &result->nodes;
    in.workload = &as_run;
    in.records = &result->records;
    // A refused array: none of its tasks was accepted. (One lookup table, not a search of
    // the workload per refusal: a big trace may refuse thousands.)
    std::unordered_map<std::uint64_t, std::int64_t> array_tasks;
    for (const sim::WorkloadJob& w : workload->jobs) {
      if (!w.spec.array.empty()) array_tasks[w.spec.id.value()] = w.spec.array.count();
    }
    for (JobId id : result->rejected) {
      const auto array = array_tasks.find(id.value());
      if (array == array_tasks.end()) {
        in.rejected.push_back(id);
        continue;
      }
      for (std::int64_t p = 0; p < array->second; ++p) {
        in.rejected.emplace_back(id.value() + 1 + static_cast<std::uint64_t>(p));
      }
    }
    // With runtime predictions a promise rests on predicted ends, which a job may outlive
    // well within its limit: the rule (only a limit overrun breaks a promise) does not hold.
    in.check_reservations = config->scheduler.backfill != BackfillMode::kNone &&
                            config->scheduler.runtime_prediction == RuntimePrediction::kNone;
    sim::take_partition_rounding(*config, in);
    if (auto st = sim::validate_schedule(in); !st) {
      std::cerr << "fairway-sim: check failed: " << st.error().message << '\n';
      return kExitCheckFailed;
    }
    std::cerr << "fairway-sim: check passed (" << result->records.size() << " jobs)\n";
  }

  if (!compare_path.empty() && plots_dir.empty()) {
    std::cerr << "fairway-sim: --compare draws a second replay: it needs --plots DIR\n";
    return kExitBadInput;
  }
  if (!plots_dir.empty()) {
    const auto label = [](const std::string& path) { return std::filesystem::path(path).stem().string(); };
    std::vector<sim::ChartRun> runs{{label(config_path), &result->records, total_cores}};
    std::optional<sim::SimulationResult> other;
    if (!compare_path.empty()) {
      auto other_config = load_config_file(compare_path);
      if (!other_config) {
        std::cerr << "fairway-sim: --compare: " << other_config.error().message << '\n';
        return kExitBadInput;
      }
      auto replay = sim::simulate(*other_config, *workload);
      if (!replay) {
        std::cerr << "fairway-sim: --compare: " << replay.error().message << '\n';
        return kExitBadInput;
      }
      other = std::move(*replay);
      std::int64_t other_cores = 0;
      for (const auto& n : other->nodes) other_cores += n.total_cores();
      runs.push_back({label(compare_path), &other->records, other_cores});
    }
    auto written = sim::write_charts(plots_dir, runs, result->nodes);
    if (!written) {
      std::cerr << "fairway-sim: " << written.error().message << '\n';
      return kExitBadInput;
    }
    for (const std::string& f : *written) std::cerr << "fairway-sim: wrote " << f << '\n';
  }

  const std::string text = summary_json(summary).dump(2);
  std::cout << text << '\n';
  if (!out_path.empty()) {
    std::ofstream f(out_path);
    if (!f) {
      std::cerr << "fairway-sim: --out: cannot write '" << out_path << "'\n";
      return kExitBadInput;
    }
    f << text << '\n';
  }
  return 0;
}

}  // namespace
