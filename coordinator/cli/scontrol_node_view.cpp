#include "coordinator/cli/scontrol_node_view.h"

#include "coordinator/cli/slurm_commands.h"
#include "coordinator/cli/text_format.h"

namespace fairway::cli {
namespace {

std::string slurm_state(const wire::NodeView& n) {
  const std::int32_t cpus = n.cores * n.threads_per_core;
  const std::string busy = n.cores_used == 0 ? "IDLE" : n.cores_used < cpus ? "MIXED" : "ALLOCATED";
  if (n.state == "down") return "DOWN+NOT_RESPONDING";
  if (n.state == "drained" || n.state == "draining") return busy + "+DRAIN";
  return busy;
}

}  // namespace

std::string render_scontrol_node(const wire::NodeView& n) {
  const std::int32_t cpus = n.cores * n.threads_per_core;
  const std::string gres = n.gpus == 0 ? "(null)"
                                       : "gpu:" + (n.gpu_types.empty() ? std::string() : n.gpu_types.front() + ":") +
                                             std::to_string(n.gpus);
  const std::string mem = n.memory_mb > 0 ? ",mem=" + std::to_string(n.memory_mb) + "M" : std::string();
  std::string out;
  // Slurm ends some lines with a blank; scripts that split on blanks do not mind.
  out += "NodeName=" + n.name + " Arch=(null) CoresPerSocket=" + std::to_string(n.sockets > 0 ? n.cores / n.sockets : n.cores) + " \n";
  out += "   CPUAlloc=" + std::to_string(n.cores_used) + " CPUEfctv=" + std::to_string(cpus) +
         " CPUTot=" + std::to_string(cpus) + " CPULoad=N/A\n";
  out += "   AvailableFeatures=(null)\n";
  out += "   ActiveFeatures=(null)\n";
  out += "   Gres=" + gres + "\n";
  out += "   NodeAddr=" + n.name + " NodeHostName=" + n.name + " Version=" + kSlurmInterfaceVersion + "\n";
  out += "   OS=(null) \n";
  out += "   RealMemory=" + std::to_string(n.memory_mb > 0 ? n.memory_mb : 1) + " AllocMem=" +
         std::to_string(n.memory_used_mb) + " FreeMem=N/A Sockets=" + std::to_string(n.sockets) + " Boards=1\n";
  out += "   State=" + slurm_state(n) + " ThreadsPerCore=" + std::to_string(n.threads_per_core) +
         " TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A\n";
  out += "   Partitions=" + (n.partitions.empty() ? std::string("(null)") : join(n.partitions, ",")) + " \n";
  out += "   BootTime=None SlurmdStartTime=None\n";
  out += "   LastBusyTime=" + (n.last_heartbeat ? format_local_time(*n.last_heartbeat) : std::string("None")) + "\n";
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
