#include "client/views/slurm/sdiag_view.h"

#include <sys/time.h>

#include <chrono>
#include <cstdio>

#include "client/views/metric_value.h"
#include "client/views/text_format.h"
#include "shared/model/job_state.h"

namespace fairway::cli {
namespace {

std::uint64_t whole(double v) {
  return v > 0 ? static_cast<std::uint64_t>(v + 0.5) : 0;
}

std::string stamped(std::int64_t unix_seconds) {
  return format_ctime(Time::from_seconds(unix_seconds)) + " (" + std::to_string(unix_seconds) + ")";
}

std::string printed(const char* format, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

}  // namespace

std::int64_t gettimeofday_latency_us() {
  const auto began = std::chrono::steady_clock::now();
  timeval tv{};
  for (int i = 0; i < 1000; ++i) ::gettimeofday(&tv, nullptr);
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - began)
      .count();
}

std::string render_sdiag(const wire::MetricsReply& r, std::int64_t clock_latency_us) {
  const auto v = [&](std::string_view name, std::string_view suffix = "") {
    return metric_value(r, name, suffix);
  };
  const auto us = [](double seconds) { return whole(seconds * 1e6); };
  const std::int64_t now = r.now.seconds();
  const auto since = static_cast<std::int64_t>(v("fairway_start_time_seconds"));
  const std::uint64_t passes = whole(v("fairway_passes_total"));
  const double pass_count = v("fairway_pass_duration_seconds", "_count");
  const std::uint64_t mean_us =
      pass_count > 0 ? us(v("fairway_pass_duration_seconds", "_sum") / pass_count) : 0;
  const std::uint64_t mean_depth =
      passes > 0 ? whole(v("fairway_pass_jobs_considered_total") / static_cast<double>(passes)) : 0;
  const std::uint64_t minutes = now > since && since > 0 ? static_cast<std::uint64_t>((now - since) / 60) : 0;
  std::uint64_t pending = 0;
  for (JobState s : {JobState::kPending, JobState::kHeld, JobState::kBlocked, JobState::kRequeued}) {
    pending += whole(metric_value(r, "fairway_jobs", "", "state", to_string(s)));
  }
  const std::uint64_t running =
      whole(metric_value(r, "fairway_jobs", "", "state", to_string(JobState::kRunning)));
  const std::uint64_t last_us = us(v("fairway_last_pass_duration_seconds"));
  const std::uint64_t max_us = us(v("fairway_max_pass_duration_seconds"));
  const std::uint64_t last_depth = whole(v("fairway_last_pass_reservations"));
  const std::uint64_t last_queue = whole(v("fairway_last_pass_jobs_considered"));
  const double last_pass_at = v("fairway_last_pass_time_seconds");

  std::string out = "*******************************************************\n";
  out += "sdiag output at " + stamped(now) + "\n";
  out += "Data since      " + stamped(since) + "\n";
  out += "*******************************************************\n";
  // One thread serves every request; agents and accounting have no queues of their own.
  out +=
      "Server thread count:  1\nAgent queue size:     0\nAgent count:          0\nAgent thread count:   0\n"
      "DBD Agent queue size: 0\n\n";
  out += printed("Jobs submitted: %llu\n",
                 static_cast<unsigned long long>(whole(v("fairway_jobs_submitted_total"))));
  out += printed("Jobs started:   %llu\n",
                 static_cast<unsigned long long>(whole(v("fairway_jobs_started_total"))));
  out += printed("Jobs completed: %llu\n", static_cast<unsigned long long>(whole(metric_value(
                                               r, "fairway_jobs_ended_total", "", "state", "completed"))));
  out += printed("Jobs canceled:  %llu\n", static_cast<unsigned long long>(whole(metric_value(
                                               r, "fairway_jobs_ended_total", "", "state", "cancelled"))));
  out += printed("Jobs failed:    %llu\n\n", static_cast<unsigned long long>(whole(metric_value(
                                                 r, "fairway_jobs_ended_total", "", "state", "failed"))));
  out += "Job states ts:  " + stamped(now) + "\n";
  out += printed("Jobs pending:   %llu\nJobs running:   %llu\n\n", static_cast<unsigned long long>(pending),
                 static_cast<unsigned long long>(running));
  // Fairway's pass is both of Slurm's schedulers at once: its figures stand for each.
  out += "Main schedule statistics (microseconds):\n";
  out += printed("\tLast cycle:   %llu\n\tMax cycle:    %llu\n\tTotal cycles: %llu\n",
                 static_cast<unsigned long long>(last_us), static_cast<unsigned long long>(max_us),
                 static_cast<unsigned long long>(passes));
  if (passes > 0) {
    out += printed("\tMean cycle:   %llu\n\tMean depth cycle:  %llu\n",
                   static_cast<unsigned long long>(mean_us), static_cast<unsigned long long>(mean_depth));
  }
  if (minutes > 0)
    out += printed("\tCycles per minute: %llu\n", static_cast<unsigned long long>(passes / minutes));
  out += printed("\tLast queue length: %llu\n\n", static_cast<unsigned long long>(last_queue));
  const auto backfilled = static_cast<unsigned long long>(whole(v("fairway_backfill_jobs_started_total")));
  out += "Backfilling stats\n";
  out += printed("\tTotal backfilled jobs (since last slurm start): %llu\n", backfilled);
  out += printed("\tTotal backfilled jobs (since last stats cycle start): %llu\n", backfilled);
  out += "\tTotal backfilled heterogeneous job components: 0\n";
  out += printed("\tTotal cycles: %llu\n", static_cast<unsigned long long>(passes));
  out += last_pass_at > 0 ? "\tLast cycle when: " + stamped(static_cast<std::int64_t>(last_pass_at)) + "\n"
                          : std::string("\tLast cycle when: N/A\n");
  out += printed("\tLast cycle: %llu\n\tMax cycle:  %llu\n", static_cast<unsigned long long>(last_us),
                 static_cast<unsigned long long>(max_us));
  if (passes > 0) out += printed("\tMean cycle: %llu\n", static_cast<unsigned long long>(mean_us));
  out += printed("\tLast depth cycle: %llu\n\tLast depth cycle (try sched): %llu\n",
                 static_cast<unsigned long long>(last_depth), static_cast<unsigned long long>(last_depth));
  if (passes > 0) {
    const auto depth_mean = static_cast<unsigned long long>(
        whole(v("fairway_pass_reservations_total") / static_cast<double>(passes)));
    out += printed("\tDepth Mean: %llu\n\tDepth Mean (try depth): %llu\n", depth_mean, depth_mean);
  }
  out += printed("\tLast queue length: %llu\n", static_cast<unsigned long long>(last_queue));
  if (passes > 0) out += printed("\tQueue length mean: %llu\n", static_cast<unsigned long long>(mean_depth));
  out += "\tLast table size: 0\n";
  if (passes > 0) out += "\tMean table size: 0\n";
  out += printed("\nLatency for 1000 calls to gettimeofday(): %lld microseconds\n\n",
                 static_cast<long long>(clock_latency_us));
  out += "Remote Procedure Call statistics by message type\n";
  for (const auto& f : r.families) {
    if (f.name != "fairway_messages_total") continue;
    for (const auto& s : f.samples) {
      if (s.value <= 0 || s.labels.empty()) continue;
      // The message type's number on the wire, as sdiag gives each RPC's.
      unsigned number = 0;
      for (unsigned t = 1; t < 64 && number == 0; ++t) {
        if (wire::to_string(static_cast<wire::MessageType>(t)) == s.labels.front().second) number = t;
      }
      out +=
          printed("\t%-40s(%5u) count:%-6llu ave_time:%-6d total_time:%d\n", s.labels.front().second.c_str(),
                  number, static_cast<unsigned long long>(whole(s.value)), 0, 0);
    }
  }
  out += "\nRemote Procedure Call statistics by user\n\nPending RPC statistics\n\tNo pending RPCs\n";
  return out;
}

}  // namespace fairway::cli
