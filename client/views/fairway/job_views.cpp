#include "client/views/fairway/job_views.h"

#include <algorithm>
#include <utility>

#include "client/views/text_format.h"
#include "shared/base/duration_format.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

std::vector<std::string> allocated_nodes(const wire::JobView& job) {
  std::vector<std::string> nodes;
  for (const auto& a : job.allocation) nodes.push_back(a.node);
  return nodes;
}

std::string opt_time(const std::optional<Time>& t) {
  return t ? format_local_time(*t) : "N/A";
}

std::string numbers(const std::vector<std::int32_t>& v) {
  if (v.empty()) return "none";
  std::vector<std::string> parts;
  for (std::int32_t x : v) parts.push_back(std::to_string(x));
  return join(parts, ",");
}

std::string or_none(const std::string& s) {
  return s.empty() ? "(none)" : s;
}

}  // namespace

std::string node_count_text(const wire::JobView& job) {
  if (!job.allocation.empty()) return std::to_string(job.allocation.size());
  return job.nodes > 0 ? std::to_string(job.nodes) : "-";
}

std::string start_text(const wire::JobView& job) {
  if (is_waiting(job.state)) {
    return job.estimated_start ? format_local_time(*job.estimated_start) : "N/A";
  }
  return job.start_time ? format_local_time(*job.start_time) : "N/A";
}

std::string allocated_hostlist(const wire::JobView& job) {
  return compress_hostlist(allocated_nodes(job));
}

std::int64_t job_cores(const wire::JobView& job) {
  if (!job.allocation.empty()) {
    std::int64_t n = 0;
    for (const auto& a : job.allocation) n += static_cast<std::int64_t>(a.cores.size());
    return n;
  }
  return job.nodes > 0 ? std::int64_t{job.nodes} * job.cores : job.cores;
}

std::string elapsed_text(const wire::JobView& job, Time now) {
  if (!job.start_time || is_waiting(job.state)) return format_elapsed(Duration::seconds(0));
  const Time end = job.end_time.value_or(now);
  return format_elapsed(end - *job.start_time);
}

std::string nodelist_or_reason(const wire::JobView& job) {
  if (is_waiting(job.state)) {
    return job.reasons.empty() ? "(None)" : "(" + join(job.reasons, ",") + ")";
  }
  return join(allocated_nodes(job), ",");
}

std::string job_id_text(const wire::JobView& j) {
  if (j.array_job.value() == 0) return std::to_string(j.id.value());
  return std::to_string(j.array_job.value()) + "_" + j.array_tasks;
}

std::string render_queue(const wire::JobQueryReply& reply) {
  std::vector<std::vector<std::string>> rows;
  rows.reserve(reply.jobs.size());
  for (const auto& j : reply.jobs) {
    rows.push_back({job_id_text(j), j.partition, j.name, j.user, state_code(j.state),
                    elapsed_text(j, reply.now), node_count_text(j), nodelist_or_reason(j), start_text(j)});
  }
  return render_table(
      {"JOBID", "PARTITION", "NAME", "USER", "ST", "TIME", "NODES", "NODELIST(REASON)", "START"}, rows);
}

std::string render_job_detail(const wire::JobView& j, Time now) {
  std::string out;
  const auto line = [&](std::string_view key, const std::string& value) {
    out += std::string(key) + ": " + value + "\n";
  };
  line("JobId", job_id_text(j));
  if (j.array_job.value() != 0) {
    // As scontrol: the array and the task, beside the id the task runs under.
    line("ArrayJobId", std::to_string(j.array_job.value()));
    line("ArrayTaskId", j.array_tasks);
    if (j.id != j.array_job) line("RawJobId", std::to_string(j.id.value()));
  }
  line("Name", or_none(j.name));
  line("User", j.user);
  line("Account", or_none(j.account));
  line("Partition", or_none(j.partition));
  line("QOS", or_none(j.qos));
  line("State", state_name(j.state) + " (" + state_code(j.state) + ")");
  for (std::size_t i = 0; i < j.reasons.size(); ++i) {
    const std::string text = i < j.reason_texts.size() ? j.reason_texts[i] : "";
    line("Reason", text.empty() ? j.reasons[i] : j.reasons[i] + ": " + text);
  }
  line("SubmitTime", format_local_time(j.submit_time));
  if (is_waiting(j.state)) line("EstimatedStart", opt_time(j.estimated_start));
  // scheduler.runtime_prediction: EstimatedStart is planned by predicted runs.
  if (j.predicted_runtime) {
    line("PredictedRuntime", format_walltime(*j.predicted_runtime));
    if (is_waiting(j.state)) line("EstimatedStartByLimit", opt_time(j.estimated_start_by_limit));
  }
  line("StartTime", opt_time(j.start_time));
  line("EndTime", opt_time(j.end_time));
  line("RunTime", elapsed_text(j, now));
  line("TimeLimit", format_walltime(j.time_limit));
  const std::string per = j.nodes > 0 ? " per node" : " in total";
  line("Nodes", j.nodes > 0 ? std::to_string(j.nodes) : "any");
  line("Cores", std::to_string(j.cores) + per);
  line("GPUs", std::to_string(j.gpus) + per + (j.gpu_type.empty() ? "" : " of type " + j.gpu_type));
  line("Memory", j.memory_per_node_mb > 0  ? std::to_string(j.memory_per_node_mb) + " MiB per node"
                 : j.memory_per_cpu_mb > 0 ? std::to_string(j.memory_per_cpu_mb) + " MiB per core"
                                           : "none asked (not limited)");
  line("Priority", format_number(j.priority));
  for (const auto& f : j.priority_factors) line("  " + f.name, format_number(f.value));
  for (const auto& a : j.allocation) {
    line("Allocation", a.node + ": cores " + numbers(a.cores) + "; gpus " + numbers(a.gpus));
  }
  if (j.exit_code) line("ExitCode", std::to_string(*j.exit_code));
  if (j.signal) line("Signal", std::to_string(*j.signal));
  line("WorkDir", or_none(j.working_dir));
  line("StdOut", or_none(j.stdout_path));
  line("StdErr", or_none(j.stderr_path));
  line("Requeues", std::to_string(j.requeue_count));
  if (!j.state_reason.empty()) line("StateReason", j.state_reason);
  if (!j.reservation.empty()) line("Reservation", j.reservation);
  if (j.peak_memory_bytes)
    line("PeakMemory", std::to_string((*j.peak_memory_bytes + (1 << 20) - 1) >> 20) + " MiB");
  if (j.cpu_time_ms) line("CPUTime", format_walltime(Duration::seconds(*j.cpu_time_ms / 1000)));
  return out;
}

std::int32_t min_cpus_per_node(const wire::JobView& job) {
  const std::int32_t cpt = std::max(1, job.cpus_per_task);
  return job.ntasks_per_node > 0 ? job.ntasks_per_node * cpt : cpt;
}

std::string gpu_tres_text(const wire::JobView& job, std::int64_t n) {
  return "gres:gpu:" + (job.gpu_type.empty() ? std::string() : job.gpu_type + ":") + std::to_string(n);
}

std::string mail_type_text(std::uint8_t events) {
  // Slurm's ALL also holds events Fairway sends no mail for; it prints them with it.
  constexpr std::uint8_t kAll = kMailBegin | kMailEnd | kMailFail | kMailRequeue;
  const bool all = (events & kAll) == kAll;
  std::string out = all ? "INVALID_DEPEND" : "";
  const std::pair<std::uint8_t, const char*> names[] = {{kMailBegin, "BEGIN"},
                                                        {kMailEnd, "END"},
                                                        {kMailFail, "FAIL"},
                                                        {kMailRequeue, "REQUEUE"},
                                                        {kMailTimeLimit, "TIME_LIMIT"},
                                                        {kMailTimeLimit90, "TIME_LIMIT_90"},
                                                        {kMailTimeLimit80, "TIME_LIMIT_80"},
                                                        {kMailTimeLimit50, "TIME_LIMIT_50"}};
  for (const auto& [bit, name] : names) {
    if ((events & bit) == 0) continue;
    if (!out.empty()) out += ',';
    out += name;
  }
  if (all) out += ",STAGE_OUT";
  return out;
}

}  // namespace fairway::cli
