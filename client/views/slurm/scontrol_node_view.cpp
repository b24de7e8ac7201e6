#include "client/views/slurm/scontrol_node_view.h"

#include "client/views/slurm/slurm_version.h"
#include "client/views/text_format.h"
#include "shared/base/duration_format.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

// scontrol's words: IDLE+DRAIN, DOWN+NOT_RESPONDING.
std::string slurm_state(const wire::NodeView& n) {
  const SlurmNodeState s = slurm_node_state(n);
  std::string out = to_upper(s.base);
  if (s.drain) out += "+DRAIN";
  if (s.not_responding) out += "+NOT_RESPONDING";
  return out;
}

}  // namespace

SlurmNodeState slurm_node_state(const wire::NodeView& n) {
  if (n.state == "down") return {"down", false, true};
  const std::int32_t cpus = n.cores * n.threads_per_core;
  std::string base = n.cores_used == 0 ? "idle" : n.cores_used < cpus ? "mixed" : "allocated";
  return {std::move(base), n.state == "drained" || n.state == "draining", false};
}

std::string render_scontrol_partition(const wire::PartitionView& p) {
  const std::string preempt = p.preempt.empty() ? "OFF" : to_upper(p.preempt);
  std::string out;
  out += "PartitionName=" + p.name + "\n";
  // As Slurm's: a deny list shows in place of the allow list it excludes.
  const auto list = [](const std::vector<std::string>& names) {
    return names.empty() ? std::string("ALL") : join(names, ",");
  };
  out += "   AllowGroups=" + list(p.allow_groups) +
         (p.deny_accounts.empty() ? " AllowAccounts=" + list(p.allow_accounts)
                                  : " DenyAccounts=" + join(p.deny_accounts, ",")) +
         (p.deny_qos.empty() ? " AllowQos=" + list(p.allow_qos) : " DenyQos=" + join(p.deny_qos, ",")) + "\n";
  out += "   AllocNodes=ALL Default=" + std::string(p.is_default ? "YES" : "NO") + " QoS=N/A\n";
  out += "   DefaultTime=" + format_walltime(p.default_time) +
         " DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO\n";
  out += "   MaxNodes=UNLIMITED MaxTime=" + format_walltime(p.max_time) +
         " MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED\n";
  out += "   Nodes=" + (p.nodes.empty() ? std::string("(null)") : compress_hostlist(p.nodes)) + "\n";
  out += "   PriorityJobFactor=" + std::to_string(static_cast<std::int64_t>(p.priority)) +
         " PriorityTier=" + std::to_string(p.priority_tier) +
         " RootOnly=NO ReqResv=NO OverSubscribe=" + (p.allocation_unit == "node" ? "EXCLUSIVE" : "NO") + "\n";
  out += "   OverTimeLimit=NONE PreemptMode=" + preempt + "\n";
  out += "   State=UP TotalCPUs=" + std::to_string(p.cores) +
         " TotalNodes=" + std::to_string(p.nodes.size()) + " SelectTypeParameters=NONE\n";
  out += "   JobDefaults=(null)\n";
  out += "   DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED\n";
  out += "   TRES=cpu=" + std::to_string(p.cores) + ",node=" + std::to_string(p.nodes.size()) +
         ",billing=" + std::to_string(p.cores) +
         (p.gpus > 0 ? ",gres/gpu=" + std::to_string(p.gpus) : std::string()) + "\n";
  return out + "\n";
}

std::string render_scontrol_node(const wire::NodeView& n) {
  const std::int32_t cpus = n.cores * n.threads_per_core;
  const std::string gres = n.gpus == 0
                               ? "(null)"
                               : "gpu:" + (n.gpu_types.empty() ? std::string() : n.gpu_types.front() + ":") +
                                     std::to_string(n.gpus);
  const std::string mem = n.memory_mb > 0 ? ",mem=" + std::to_string(n.memory_mb) + "M" : std::string();
  std::string out;
  // Slurm ends some lines with a blank; scripts that split on blanks do not mind.
  out += "NodeName=" + n.name +
         " Arch=(null) CoresPerSocket=" + std::to_string(n.sockets > 0 ? n.cores / n.sockets : n.cores) +
         " \n";
  out += "   CPUAlloc=" + std::to_string(n.cores_used) + " CPUEfctv=" + std::to_string(cpus) +
         " CPUTot=" + std::to_string(cpus) + " CPULoad=N/A\n";
  const std::string features = n.features.empty() ? "(null)" : join(n.features, ",");
  out += "   AvailableFeatures=" + features + "\n";
  out += "   ActiveFeatures=" + features + "\n";
  out += "   Gres=" + gres + "\n";
  out += "   NodeAddr=" + n.name + " NodeHostName=" + n.name + " Version=" + kSlurmInterfaceVersion + "\n";
  out += "   OS=(null) \n";
  out += "   RealMemory=" + std::to_string(n.memory_mb > 0 ? n.memory_mb : 1) +
         " AllocMem=" + std::to_string(n.memory_used_mb) +
         " FreeMem=N/A Sockets=" + std::to_string(n.sockets) + " Boards=1\n";
  out += "   State=" + slurm_state(n) + " ThreadsPerCore=" + std::to_string(n.threads_per_core) +
         " TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A\n";
  out += "   Partitions=" + (n.partitions.empty() ? std::string("(null)") : join(n.partitions, ",")) + " \n";
  out += "   BootTime=None SlurmdStartTime=None\n";
  out +=
      "   LastBusyTime=" + (n.last_heartbeat ? format_local_time(*n.last_heartbeat) : std::string("None")) +
      "\n";
  out += "   CfgTRES=cpu=" + std::to_string(cpus) + mem + ",billing=" + std::to_string(cpus) + "\n";
  out += "   AllocTRES=" + (n.cores_used > 0 ? "cpu=" + std::to_string(n.cores_used) : std::string()) + "\n";
  out += "   CapWatts=n/a\n";
  out += "   CurrentWatts=0 AveWatts=0\n";
  out += "   ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s\n";
  if (!n.reason.empty()) {
    out += "   Reason=" + n.reason + " [" + (n.reason_user.empty() ? "Unknown" : n.reason_user) + "@" +
           (n.reason_time ? format_local_time(*n.reason_time) : std::string("Unknown")) + "]\n";
  }
  return out + "\n";
}

}  // namespace fairway::cli
