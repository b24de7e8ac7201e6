#include "client/views/slurm/slurm_json.h"

#include <charconv>
#include <cstring>
#include <nlohmann/json.hpp>

#include "client/views/fairway/job_views.h"
#include "client/views/slurm/scontrol_node_view.h"
#include "client/views/slurm/slurm_job_view.h"
#include "client/views/slurm/slurm_version.h"
#include "client/views/text_format.h"

namespace fairway::cli {
namespace {

using Json = nlohmann::ordered_json;  // Slurm's key order, which people diff by eye

Json meta() {
  Json m;
  m["plugin"] = {{"type", "openapi/v0.0.38"}, {"name", "Slurm OpenAPI v0.0.38"}};
  m["Slurm"] = {{"version", {{"major", 22}, {"micro", 8}, {"minor", 5}}},
                {"release", kSlurmInterfaceVersion}};
  return m;
}

template <typename T>
Json or_null(bool present, const T& value) {
  return present ? Json(value) : Json(nullptr);
}

bool held(const wire::JobView& j) {
  for (const std::string& r : j.reasons) {
    if (r.starts_with("JobHeld")) return true;
  }
  return false;
}

// "cpu=2,mem=4000M,node=1,billing=2": what a job asks (req) or holds (alloc).
std::string tres(const wire::JobView& j, std::int64_t cpus, bool with_memory) {
  const std::int64_t nodes =
      j.allocation.empty() ? std::max(j.nodes, 1) : static_cast<std::int64_t>(j.allocation.size());
  std::string out = "cpu=" + std::to_string(cpus);
  if (with_memory) {
    const std::int64_t mb =
        j.memory_per_node_mb > 0 ? j.memory_per_node_mb * nodes : j.memory_per_cpu_mb * cpus;
    if (mb > 0) out += ",mem=" + std::to_string(mb) + "M";
  }
  out += ",node=" + std::to_string(nodes) + ",billing=" + std::to_string(cpus);
  if (j.gpus > 0) out += ",gres/gpu=" + std::to_string(j.nodes > 0 ? j.nodes * j.gpus : j.gpus);
  return out;
}

// Why it waits, or, once it ended, what Slurm says ended it.
std::string state_reason(const wire::JobView& j) {
  if (!j.reasons.empty() && !is_terminal(j.state)) return j.reasons.front();
  if (j.state == JobState::kFailed) return j.signal.value_or(0) != 0 ? "RaisedSignal" : "NonZeroExitCode";
  if (j.state == JobState::kTimeout) return "TimeLimit";
  return "None";
}

// A task's index is its array_task_id; the line for an array's waiting tasks carries
// their list ("[5-100%10]") as the task string, its running limit as array_max_tasks.
void put_array(Json& o, const wire::JobView& j) {
  o["array_job_id"] = j.array_job.value();
  std::int64_t index = 0;
  const std::string& t = j.array_tasks;
  const bool single =
      !t.empty() && std::from_chars(t.data(), t.data() + t.size(), index).ptr == t.data() + t.size();
  o["array_task_id"] = or_null(single, index);
  std::int64_t max_tasks = 0;
  std::string list = single ? std::string() : t;
  if (list.starts_with('[') && list.ends_with(']')) list = list.substr(1, list.size() - 2);
  if (const auto pct = list.find('%'); pct != std::string::npos) {
    std::from_chars(list.data() + pct + 1, list.data() + list.size(), max_tasks);
  }
  o["array_max_tasks"] = max_tasks;
  o["array_task_string"] = list;
}

// job_resources of a running job: per node, each core under its socket (from the node's
// shape: sockets of equal size), as Slurm nests them.
Json job_resources(const wire::JobView& j, const std::vector<wire::NodeView>& nodes) {
  Json r;
  r["nodes"] = allocated_hostlist(j);
  r["allocated_cores"] = job_cores(j);
  r["allocated_hosts"] = j.allocation.size();
  Json list = Json::array();
  for (const auto& a : j.allocation) {
    std::int32_t per_socket = 0;
    for (const auto& n : nodes) {
      if (n.name == a.node && n.sockets > 0) per_socket = n.cores / n.sockets;
    }
    Json sockets = Json::object();
    for (std::int32_t c : a.cores) {
      const std::int32_t s = per_socket > 0 ? c / per_socket : 0;
      const std::int32_t core = per_socket > 0 ? c % per_socket : c;
      sockets[std::to_string(s)]["cores"][std::to_string(core)] = "allocated";
    }
    const std::int64_t mb = j.memory_per_node_mb > 0
                                ? j.memory_per_node_mb
                                : j.memory_per_cpu_mb * static_cast<std::int64_t>(a.cores.size());
    list.push_back({{"sockets", sockets},
                    {"nodename", a.node},
                    {"cpus_used", 0},
                    {"memory_used", 0},
                    {"memory_allocated", mb}});
  }
  r["allocated_nodes"] = list;
  return r;
}

Json job_object(const wire::JobView& j, const std::string& cluster, Time now,
                const std::vector<wire::NodeView>& nodes, const GroupNameFn& group_name) {
  const bool running = j.state == JobState::kRunning;
  const bool pending = j.state == JobState::kPending;
  const bool waits_eligible = pending && !held(j);
  const std::int64_t cpus = job_cores(j);
  const Json zero = 0;
  Json o;
  o["account"] = j.account;
  o["accrue_time"] = waits_eligible || !pending ? j.submit_time.seconds() : 0;
  o["admin_comment"] = "";
  put_array(o, j);
  o["association_id"] = 0;
  o["batch_features"] = "";
  o["batch_flag"] = !j.interactive;
  o["batch_host"] = j.allocation.empty() ? std::string() : j.allocation.front().node;
  // JOB_MEM_SET: the job asked for memory (here: it has an amount, its own or its
  // partition's default, which Slurm would also hold it to).
  o["flags"] = Json::array();
  if (running) o["flags"].push_back("JOB_WAS_RUNNING");
  if (j.memory_per_node_mb > 0 || j.memory_per_cpu_mb > 0) o["flags"].push_back("JOB_MEM_SET");
  o["burst_buffer"] = "";
  o["burst_buffer_state"] = "";
  o["cluster"] = cluster;
  o["cluster_features"] = "";
  o["command"] = "";
  o["comment"] = "";
  o["container"] = "";
  o["contiguous"] = false;
  o["core_spec"] = nullptr;
  o["thread_spec"] = nullptr;
  o["cores_per_socket"] = nullptr;
  o["billable_tres"] = or_null(!pending, static_cast<double>(cpus));
  o["cpus_per_task"] = or_null(j.cpus_per_task > 0, j.cpus_per_task);
  o["cpu_frequency_minimum"] = nullptr;
  o["cpu_frequency_maximum"] = nullptr;
  o["cpu_frequency_governor"] = nullptr;
  o["cpus_per_tres"] = "";
  o["deadline"] = zero;
  o["delay_boot"] = zero;
  o["dependency"] = "";
  o["derived_exit_code"] = zero;
  o["eligible_time"] = held(j) ? 0 : j.submit_time.seconds();
  // A running job's end is when its limit runs out, as Slurm plans it.
  std::int64_t end = j.end_time ? j.end_time->seconds() : 0;
  if (running && j.start_time && !j.time_limit.is_infinite()) end = (*j.start_time + j.time_limit).seconds();
  o["end_time"] = end;
  o["excluded_nodes"] = "";
  // The wait status: the code in the high byte, the signal in the low.
  o["exit_code"] = (j.exit_code.value_or(0) << 8) | j.signal.value_or(0);
  o["features"] = "";
  o["federation_origin"] = "";
  o["federation_siblings_active"] = "";
  o["federation_siblings_viable"] = "";
  o["gres_detail"] = Json::array();
  o["group_id"] = j.gid.value_or(0);
  o["group_name"] = j.gid ? group_name(*j.gid) : std::string();
  o["job_id"] = j.id.value();
  if (!j.allocation.empty()) o["job_resources"] = job_resources(j, nodes);
  o["job_state"] = state_name(j.state);
  o["last_sched_evaluation"] = now.seconds();
  o["licenses"] = "";
  o["max_cpus"] = zero;
  o["max_nodes"] = zero;
  o["mcs_label"] = "";
  o["memory_per_tres"] = "";
  o["name"] = j.name;
  o["nodes"] = allocated_hostlist(j);
  o["nice"] = nullptr;
  o["tasks_per_core"] = nullptr;
  o["tasks_per_node"] = zero;
  o["tasks_per_socket"] = nullptr;
  o["tasks_per_board"] = zero;
  o["cpus"] = cpus;
  o["node_count"] =
      j.allocation.empty() ? std::max(j.nodes, 1) : static_cast<std::int32_t>(j.allocation.size());
  o["tasks"] = j.ntasks > 0 ? j.ntasks : std::max<std::int64_t>(1, cpus / std::max(1, j.cpus_per_task));
  o["het_job_id"] = zero;
  o["het_job_id_set"] = "";
  o["het_job_offset"] = zero;
  o["partition"] = j.partition;
  o["prefer"] = "";
  o["memory_per_node"] = or_null(j.memory_per_node_mb > 0, j.memory_per_node_mb);
  o["memory_per_cpu"] = or_null(j.memory_per_cpu_mb > 0, j.memory_per_cpu_mb);
  o["minimum_cpus_per_node"] = j.cpus_per_task > 0 ? j.cpus_per_task : 1;
  o["minimum_tmp_disk_per_node"] = zero;
  o["preempt_time"] = zero;
  o["pre_sus_time"] = zero;
  o["priority"] = held(j) ? 0 : static_cast<std::int64_t>(j.priority);
  o["profile"] = nullptr;
  o["qos"] = j.qos.empty() ? "normal" : j.qos;
  o["reboot"] = false;
  o["required_nodes"] = "";
  o["requeue"] = true;
  o["resize_time"] = zero;
  o["restart_cnt"] = j.requeue_count;
  o["resv_name"] = j.reservation;
  o["shared"] = nullptr;
  o["show_flags"] = Json::array({"SHOW_ALL", "SHOW_DETAIL", "SHOW_LOCAL"});
  o["sockets_per_board"] = zero;
  o["sockets_per_node"] = nullptr;
  o["start_time"] = j.start_time        ? j.start_time->seconds()
                    : j.estimated_start ? j.estimated_start->seconds()
                                        : 0;
  o["state_description"] = "";
  o["state_reason"] = state_reason(j);
  o["standard_error"] = j.stderr_path;
  o["standard_input"] = "/dev/null";
  o["standard_output"] = j.stdout_path;
  o["submit_time"] = j.submit_time.seconds();
  o["suspend_time"] = zero;
  o["system_comment"] = "";
  o["time_limit"] = or_null(!j.time_limit.is_infinite(), j.time_limit.count() / 60);
  o["time_minimum"] = zero;
  o["threads_per_core"] = nullptr;
  o["tres_bind"] = "";
  o["tres_freq"] = "";
  o["tres_per_job"] = "";
  o["tres_per_node"] = "";
  o["tres_per_socket"] = "";
  o["tres_per_task"] = "";
  o["tres_req_str"] = tres(j, cpus, true);
  o["tres_alloc_str"] = pending ? std::string() : tres(j, cpus, false);
  o["user_id"] = j.uid.value_or(0);
  o["user_name"] = j.user;
  o["wckey"] = "";
  o["current_working_directory"] = j.working_dir;
  return o;
}

// {"status", "return_code"[, "signal"]}: how a job or step ended, as the dbv0.0.38 parser
// names it.
Json exit_json(std::optional<std::int32_t> code, std::optional<std::int32_t> signal) {
  if (signal.value_or(0) != 0) {
    return {{"status", "SIGNALED"},
            {"return_code", nullptr},
            {"signal", {{"signal_id", *signal}, {"name", std::string(strsignal(*signal))}}}};
  }
  if (code.value_or(0) != 0) return {{"status", "FAILED"}, {"return_code", *code}};
  return {{"status", "SUCCESS"}, {"return_code", 0}};
}

Json cpu_seconds(std::optional<std::int64_t> ms) {
  const std::int64_t v = ms.value_or(0);
  return {{"seconds", v / 1000}, {"microseconds", (v % 1000) * 1000}};
}

Json tres_entry(const char* type, std::int64_t id, Json count) {
  return {{"type", type}, {"name", nullptr}, {"id", id}, {"count", std::move(count)}};
}

// Who cancelled it, from the reason the coordinator records ("cancelled by NAME (uid N)").
Json canceller(const wire::JobView& j) {
  const auto name = j.state == JobState::kCancelled ? cancelled_by_name(j.state_reason) : std::nullopt;
  return name ? Json(*name) : Json(nullptr);
}

// A line under the job (its batch script's or a step's) as one of sacct's steps.
Json step_json(const wire::JobView& job, const StepLine& line) {
  const wire::JobView& step = line.view;
  const bool batch = line.id == "batch";
  std::vector<std::string> names;
  for (const auto& a : step.allocation) names.push_back(a.node);
  const auto nodes = static_cast<std::int64_t>(names.size());
  const Json none = Json::array();
  const Json stats = {{"max", none}, {"min", none}, {"average", none}, {"total", none}};
  Json s;
  s["nodes"] = {{"list", names}, {"count", nodes}, {"range", allocated_hostlist(step)}};
  s["tres"] = {{"requested", stats},
               {"consumed", stats},
               {"allocated", Json::array({tres_entry("cpu", 1, job_cores(step)), tres_entry("mem", 2, 0),
                                          tres_entry("node", 4, nodes)})}};
  const std::int64_t start = step.start_time ? step.start_time->seconds() : 0;
  s["time"] = {
      {"elapsed", step.end_time && step.start_time ? (*step.end_time - *step.start_time).count() : 0},
      {"end", step.end_time ? step.end_time->seconds() : 0},
      {"start", start},
      {"suspended", 0},
      {"system", cpu_seconds(std::nullopt)},
      {"total", cpu_seconds(step.cpu_time_ms)},
      {"user", cpu_seconds(std::nullopt)}};
  s["exit_code"] = exit_json(step.exit_code, step.signal);
  const std::int64_t tasks = batch ? 1 : std::max(1, step.ntasks);
  s["tasks"] = {{"count", tasks}};
  s["pid"] = nullptr;
  s["CPU"] = {{"requested_frequency",
               {{"min", batch ? Json(0) : Json(nullptr)}, {"max", batch ? Json(0) : Json(nullptr)}}},
              {"governor", Json::array()}};
  s["kill_request_user"] = nullptr;
  s["state"] = state_name(step.state);
  s["statistics"] = {{"CPU", {{"actual_frequency", 0}}}, {"energy", {{"consumed", 0}}}};
  std::int64_t number = 0;
  std::from_chars(line.id.data(), line.id.data() + line.id.size(), number);
  s["step"] = {{"job_id", job.id.value()},
               {"het", {{"component", nullptr}}},
               {"id", batch ? Json("batch") : Json(number)},
               {"name", step.name}};
  s["task"] = {{"distribution", batch ? "Unknown" : step_distribution(step)}};
  return s;
}

Json sacct_job(const wire::JobView& j, const std::vector<StepLine>& lines, const std::string& cluster,
               const GroupNameFn& group_name) {
  const bool ran = j.start_time.has_value();
  const std::int64_t cpus = job_cores(j);
  const std::int64_t nodes = static_cast<std::int64_t>(j.allocation.size());
  Json o;
  o["account"] = j.account;
  o["comment"] = {{"administrator", nullptr}, {"job", nullptr}, {"system", nullptr}};
  o["allocation_nodes"] = nodes;
  Json array;
  array["job_id"] = j.array_job.value();
  array["limits"] = {{"max", {{"running", {{"tasks", 0}}}}}};
  std::int64_t index = 0;
  const std::string& t = j.array_tasks;
  const bool single = j.array_job.value() != 0 && !t.empty() &&
                      std::from_chars(t.data(), t.data() + t.size(), index).ptr == t.data() + t.size();
  array["task"] = single ? Json(t) : Json(nullptr);
  array["task_id"] = single ? Json(index) : Json(nullptr);
  o["array"] = array;
  o["association"] = {{"account", j.account}, {"cluster", cluster}, {"partition", nullptr}, {"user", j.user}};
  o["cluster"] = cluster;
  o["constraints"] = "";
  o["container"] = nullptr;
  o["derived_exit_code"] = exit_json(0, 0);
  const bool held_job = held(j);
  o["time"] = {{"elapsed", ran ? (j.end_time.value_or(Time::from_seconds(0)) - *j.start_time).count() : 0},
               {"eligible", held_job ? 0 : j.submit_time.seconds()},
               {"end", j.end_time ? j.end_time->seconds() : 0},
               {"start", ran ? Json(j.start_time->seconds()) : Json(nullptr)},
               {"submission", j.submit_time.seconds()},
               {"suspended", 0},
               {"system", cpu_seconds(std::nullopt)},
               {"limit", or_null(!j.time_limit.is_infinite(), j.time_limit.count() / 60)},
               {"total", cpu_seconds(j.cpu_time_ms)},
               {"user", cpu_seconds(std::nullopt)}};
  if (ran && !j.end_time) o["time"]["elapsed"] = 0;
  o["exit_code"] = exit_json(j.exit_code, j.signal);
  o["flags"] = ran ? Json::array({"CLEAR_SCHEDULING", "STARTED_ON_SCHEDULE"}) : Json::array();
  o["group"] = j.gid ? group_name(*j.gid) : std::string();
  o["het"] = {{"job_id", 0}, {"job_offset", nullptr}};
  o["job_id"] = j.id.value();
  o["name"] = j.name;
  o["mcs"] = {{"label", ""}};
  o["nodes"] = nodes == 0 ? "None assigned" : allocated_hostlist(j);
  o["partition"] = j.partition;
  o["priority"] = held_job ? 0 : static_cast<std::int64_t>(j.priority);
  o["qos"] = j.qos.empty() ? "normal" : j.qos;
  o["required"] = {{"CPUs", cpus},
                   {"memory", j.memory_per_node_mb > 0 ? j.memory_per_node_mb : j.memory_per_cpu_mb}};
  o["kill_request_user"] = canceller(j);
  o["reservation"] = {{"id", 0}, {"name", j.reservation.empty() ? Json(0) : Json(j.reservation)}};
  o["state"] = {{"current", state_name(j.state)}, {"reason", j.reasons.empty() ? "None" : j.reasons.front()}};
  o["steps"] = Json::array();
  for (const StepLine& line : lines) o["steps"].push_back(step_json(j, line));
  Json requested = Json::array({tres_entry("cpu", 1, cpus)});
  const std::int64_t mb = j.memory_per_node_mb > 0 ? j.memory_per_node_mb * std::max<std::int64_t>(nodes, 1)
                                                   : j.memory_per_cpu_mb * cpus;
  if (mb > 0) requested.push_back(tres_entry("mem", 2, mb));
  requested.push_back(tres_entry("node", 4, std::max<std::int64_t>(nodes, std::max(j.nodes, 1))));
  requested.push_back(tres_entry("billing", 5, cpus));
  Json allocated = Json::array();
  if (ran) {
    allocated = Json::array({tres_entry("cpu", 1, cpus), tres_entry("energy", 3, nullptr),
                             tres_entry("node", 4, nodes), tres_entry("billing", 5, cpus)});
  }
  o["tres"] = {{"allocated", allocated}, {"requested", requested}};
  o["user"] = j.user;
  o["wckey"] = {{"wckey", ""}, {"flags", Json::array()}};
  o["working_directory"] = j.working_dir;
  return o;
}

}  // namespace

std::string squeue_json(const wire::JobQueryReply& jobs, const std::string& cluster,
                        const std::vector<wire::NodeView>& nodes, const GroupNameFn& group_name) {
  Json out;
  out["meta"] = meta();
  out["errors"] = Json::array();
  Json list = Json::array();
  for (const auto& j : jobs.jobs) list.push_back(job_object(j, cluster, jobs.now, nodes, group_name));
  out["jobs"] = std::move(list);
  return out.dump(2) + "\n";
}

std::string sacct_json(const std::vector<wire::JobView>& jobs,
                       const std::vector<std::vector<StepLine>>& steps, const std::string& cluster,
                       const GroupNameFn& group_name) {
  Json out;
  out["meta"] = meta();
  out["meta"]["plugin"] = {{"type", "openapi/dbv0.0.38"}, {"name", "Slurm OpenAPI DB v0.0.38"}};
  out["errors"] = Json::array();
  Json list = Json::array();
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    static const std::vector<StepLine> kNone;
    list.push_back(sacct_job(jobs[i], i < steps.size() ? steps[i] : kNone, cluster, group_name));
  }
  out["jobs"] = std::move(list);
  return out.dump(2) + "\n";
}

namespace {

Json sinfo_node(const wire::NodeView& n) {
  const std::int32_t cpus = n.cores * n.threads_per_core;
  const SlurmNodeState state = slurm_node_state(n);
  Json flags = Json::array();
  if (state.drain) flags.push_back("DRAIN");
  if (state.not_responding) flags.push_back("NOT_RESPONDING");
  std::string gres;
  if (n.gpus > 0)
    gres =
        "gpu:" + (n.gpu_types.empty() ? std::string() : n.gpu_types.front() + ":") + std::to_string(n.gpus);
  Json o;
  o["architecture"] = "";
  o["burstbuffer_network_address"] = "";
  o["boards"] = 1;
  o["boot_time"] = 0;
  o["comment"] = "";
  o["cores"] = n.sockets > 0 ? n.cores / n.sockets : n.cores;
  o["cpu_binding"] = 0;
  o["cpu_load"] = 0;
  o["extra"] = "";
  o["free_memory"] = n.memory_mb > 0 ? n.memory_mb - n.memory_used_mb : 0;
  o["cpus"] = cpus;
  o["last_busy"] = n.last_heartbeat ? n.last_heartbeat->seconds() : 0;
  o["features"] = join(n.features, ",");
  o["active_features"] = join(n.features, ",");
  o["gres"] = gres;
  o["gres_drained"] = "N/A";
  o["gres_used"] = n.gpus > 0 ? "gpu:" + std::to_string(n.gpus_used) : std::string();
  o["mcs_label"] = "";
  o["name"] = n.name;
  o["next_state_after_reboot"] = "invalid";
  o["address"] = n.name;
  o["hostname"] = n.name;
  o["state"] = state.base;
  o["state_flags"] = flags;
  o["next_state_after_reboot_flags"] = Json::array();
  o["operating_system"] = "";
  o["owner"] = nullptr;
  o["partitions"] = n.partitions;
  o["port"] = 0;
  o["real_memory"] = n.memory_mb;
  o["reason"] = n.reason;
  o["reason_changed_at"] = n.reason_time ? n.reason_time->seconds() : 0;
  o["reason_set_by_user"] = n.reason_user.empty() ? Json(nullptr) : Json(n.reason_user);
  o["slurmd_start_time"] = 0;
  o["sockets"] = n.sockets;
  o["threads"] = n.threads_per_core;
  o["temporary_disk"] = 0;
  o["weight"] = 1;
  o["tres"] = "cpu=" + std::to_string(cpus) +
              (n.memory_mb > 0 ? ",mem=" + std::to_string(n.memory_mb) + "M" : "") +
              ",billing=" + std::to_string(cpus);
  o["slurmd_version"] = kSlurmInterfaceVersion;
  o["alloc_memory"] = n.memory_used_mb;
  o["alloc_cpus"] = n.cores_used;
  o["idle_cpus"] = cpus - n.cores_used;
  o["tres_used"] = n.cores_used > 0 ? Json("cpu=" + std::to_string(n.cores_used)) : Json(nullptr);
  o["tres_weighted"] = static_cast<double>(n.cores_used);
  return o;
}

}  // namespace

std::string sinfo_json(const wire::NodeQueryReply& nodes) {
  Json out;
  out["meta"] = meta();
  out["errors"] = Json::array();
  Json list = Json::array();
  for (const auto& n : nodes.nodes) list.push_back(sinfo_node(n));
  out["nodes"] = std::move(list);
  return out.dump(2) + "\n";
}

}  // namespace fairway::cli
