#include "client/views/slurm/scontrol_job_view.h"

#include <cstdlib>
#include <fstream>

#include "client/views/fairway/job_views.h"
#include "client/views/text_format.h"
#include "shared/base/duration_format.h"
#include "shared/config/hostlist.h"
#include "shared/model/output_name.h"

namespace fairway::cli {
namespace {

std::string or_null(const std::string& s) {
  return s.empty() ? "(null)" : s;
}

std::string opt_time(const std::optional<Time>& t) {
  return t ? format_local_time(*t) : "Unknown";
}

}  // namespace

std::string render_scontrol_job(const wire::JobView& j, Time now,
                                const std::function<std::string(std::uint32_t gid)>& group_name) {
  std::vector<std::string> nodes;
  std::int64_t cores = 0, gpus = 0;
  for (const auto& a : j.allocation) {
    nodes.push_back(a.node);
    cores += std::ssize(a.cores);
    gpus += std::ssize(a.gpus);
  }
  const bool placed = !nodes.empty();
  if (!placed) {
    cores = j.nodes > 0 ? static_cast<std::int64_t>(j.nodes) * j.cores : j.cores;
    gpus = j.nodes > 0 ? static_cast<std::int64_t>(j.nodes) * j.gpus : j.gpus;
  }
  const std::int64_t node_count = placed ? std::ssize(nodes) : std::max(1, j.nodes);
  const std::int32_t cpus_per_task = std::max(1, j.cpus_per_task);
  // No -n: a task per node (--ntasks-per-node of them), as Slurm counts NumTasks.
  const std::int64_t tasks = j.ntasks > 0 ? j.ntasks : node_count * std::max(1, j.ntasks_per_node);
  std::int64_t memory_mb =
      j.memory_per_node_mb > 0 ? j.memory_per_node_mb * node_count : j.memory_per_cpu_mb * cores;
  std::string user = j.user + (j.uid ? "(" + std::to_string(*j.uid) + ")" : std::string());
  std::string group = "(null)";
  if (j.gid) {
    const std::string name = group_name(*j.gid);
    group = (name.empty() ? std::to_string(*j.gid) : name) + "(" + std::to_string(*j.gid) + ")";
  }
  const std::string reason = j.reasons.empty() ? "None" : j.reasons.front();
  const std::string exit =
      std::to_string(j.exit_code.value_or(0)) + ":" + std::to_string(j.signal.value_or(0));
  const Duration run = j.start_time ? (j.end_time.value_or(now) - *j.start_time) : Duration::seconds(0);
  std::string end = opt_time(j.end_time);
  // A running job's EndTime is when its limit runs out, as Slurm shows it.
  if (!j.end_time && j.start_time && !j.time_limit.is_infinite())
    end = format_local_time(*j.start_time + j.time_limit);
  std::string tres = "cpu=" + std::to_string(cores);
  if (memory_mb > 0) tres += ",mem=" + std::to_string(memory_mb) + "M";
  tres += ",node=" + std::to_string(node_count) + ",billing=" + std::to_string(cores);
  if (gpus > 0) tres += ",gres/gpu=" + std::to_string(gpus);
  std::string id_line = "JobId=" + std::to_string(j.id.value());
  if (j.array_job.value() != 0) {
    id_line += " ArrayJobId=" + std::to_string(j.array_job.value()) + " ArrayTaskId=" + j.array_tasks;
  }
  std::string out;
  const auto line = [&](const std::string& text) { out += text + "\n"; };
  line(id_line + " JobName=" + j.name);
  line("   UserId=" + user + " GroupId=" + group + " MCS_label=N/A");
  line("   Priority=" + std::to_string(static_cast<std::int64_t>(j.priority)) +
       " Nice=" + std::to_string(j.nice) + " Account=" + or_null(j.account) + " QOS=" +
       (j.qos.empty() ? std::string("normal") : j.qos));  // Slurm's default QOS, which a job without one has
  line("   JobState=" + state_name(j.state) + " Reason=" + reason + " Dependency=(null)");
  line("   Requeue=" + std::string(j.no_requeue ? "0" : "1") +
       " Restarts=" + std::to_string(j.requeue_count) + " BatchFlag=1 Reboot=0 ExitCode=" + exit);
  line("   RunTime=" + format_walltime(run) + " TimeLimit=" + format_walltime(j.time_limit) + " TimeMin=N/A");
  line("   SubmitTime=" + format_local_time(j.submit_time) +
       " EligibleTime=" + format_local_time(j.submit_time));
  line("   AccrueTime=" + format_local_time(j.submit_time));
  line("   StartTime=" + (j.start_time ? format_local_time(*j.start_time) : opt_time(j.estimated_start)) +
       " EndTime=" + end + " Deadline=N/A");
  // Fairway's own line, only with scheduler.runtime_prediction (docs/slurm-compat.md):
  // StartTime above is planned by predicted runs; this is the start planned by limits.
  if (j.predicted_runtime) {
    line("   PredictedRunTime=" + format_walltime(*j.predicted_runtime) +
         (is_waiting(j.state) ? " StartTimeByLimit=" + opt_time(j.estimated_start_by_limit) : std::string()));
  }
  line("   SuspendTime=None SecsPreSuspend=0 LastSchedEval=" + format_local_time(j.submit_time) +
       " Scheduler=Main");
  line("   Partition=" + or_null(j.partition) + " AllocNode:Sid=(null)");
  const auto node_list = [](const std::vector<std::string>& names) {
    return names.empty() ? std::string("(null)") : compress_hostlist(names);
  };
  line("   ReqNodeList=" + node_list(j.req_nodes) + " ExcNodeList=" + node_list(j.exc_nodes));
  line("   NodeList=" + (placed ? compress_hostlist(nodes) : std::string("(null)")));
  if (placed) line("   BatchHost=" + nodes.front());
  line("   NumNodes=" + std::to_string(node_count) + " NumCPUs=" + std::to_string(cores) + " NumTasks=" +
       std::to_string(tasks) + " CPUs/Task=" + std::to_string(cpus_per_task) + " ReqB:S:C:T=0:0:*:*");
  line("   TRES=" + tres);
  line("   Socks/Node=* NtasksPerN:B:S:C=" + std::to_string(j.ntasks_per_node) + ":0:*:* CoreSpec=*");
  // Slurm's sizes: whole GiB as "2G", else MiB as "1000M"; --mem-per-cpu is MinMemoryCPU.
  const auto size = [](std::int64_t mb) {
    return mb % 1024 == 0 ? std::to_string(mb / 1024) + "G" : std::to_string(mb) + "M";
  };
  line("   MinCPUsNode=" + std::to_string(min_cpus_per_node(j)) +
       (j.memory_per_cpu_mb > 0
            ? " MinMemoryCPU=" + size(j.memory_per_cpu_mb)
            : " MinMemoryNode=" + (j.memory_per_node_mb > 0 && j.gpu_ask.mem_per_gpu_mb == 0
                                       ? size(j.memory_per_node_mb)
                                       : std::string("0"))) +
       " MinTmpDiskNode=0");
  line("   Features=" + or_null(j.features) + " DelayBoot=00:00:00");
  line("   OverSubscribe=" + std::string(j.exclusive ? "NO" : "OK") +
       " Contiguous=0 Licenses=(null) Network=(null)");
  line("   Command=(null)");
  line("   WorkDir=" + j.working_dir);
  if (!j.comment.empty()) line("   Comment=" + j.comment + " ");  // Slurm's line ends with a space
  // The files the agent opens (or will): patterns expanded, the default name when unset.
  std::int32_t task = 0;
  if (j.array_job.value() != 0)
    task = static_cast<std::int32_t>(std::strtol(j.array_tasks.c_str(), nullptr, 10));
  const OutputNameFields fields{
      j.id,        j.user,
      j.name,      j.allocation.empty() ? std::string_view() : std::string_view(j.allocation.front().node),
      j.array_job, task};
  constexpr OutputExpansion kShown = OutputExpansion::kJobOnly;
  const std::string stdout_file = expand_output_path(
      j.stdout_path, fields, j.working_dir,
      expand_output_path(kDefaultOutputPattern, fields, j.working_dir, "", kShown), kShown);
  line("   StdErr=" + expand_output_path(j.stderr_path, fields, j.working_dir, stdout_file, kShown));
  line("   StdIn=/dev/null");
  line("   StdOut=" + stdout_file);
  line("   Power=");
  // The GPU request as asked, in Slurm's order (--cpus-per-gpu, --mem-per-gpu, then per job,
  // node or task).
  const GpuAsk& g = j.gpu_ask;
  std::string asked;
  if (g.cpus_per_gpu > 0) asked += " CpusPerTres=" + gpu_tres_text(j, g.cpus_per_gpu);
  if (g.mem_per_gpu_mb > 0) asked += " MemPerTres=" + gpu_tres_text(j, g.mem_per_gpu_mb);
  if (g.per == GpuAskedPer::kJob) asked += " TresPerJob=" + gpu_tres_text(j, g.count);
  if (g.per == GpuAskedPer::kNode) asked += " TresPerNode=" + gpu_tres_text(j, g.count);
  if (g.per == GpuAskedPer::kTask) asked += " TresPerTask=" + gpu_tres_text(j, g.count);
  if (!asked.empty()) line("  " + asked);
  if (j.mail_events != 0) {
    line("   MailUser=" + (j.mail_user.empty() ? j.user : j.mail_user) +
         " MailType=" + mail_type_text(j.mail_events));
  }
  line("   ");
  return out + "\n";
}

std::string group_name_from_file(std::uint32_t gid, const std::string& path) {
  std::ifstream in(path);
  std::string entry;
  while (std::getline(in, entry)) {
    // name:password:gid:members
    const auto a = entry.find(':');
    const auto b = a == std::string::npos ? a : entry.find(':', a + 1);
    const auto c = b == std::string::npos ? b : entry.find(':', b + 1);
    if (c == std::string::npos) continue;
    if (entry.substr(b + 1, c - b - 1) == std::to_string(gid)) return entry.substr(0, a);
  }
  return {};
}

}  // namespace fairway::cli
