#include "client/views/fairway/json_output.h"

#include <nlohmann/json.hpp>

#include "client/views/text_format.h"

namespace fairway::cli {
namespace {

using nlohmann::json;

json opt_time(const std::optional<Time>& t) {
  return t ? json(t->seconds()) : json(nullptr);
}

template <typename T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json ids(const std::vector<JobId>& jobs) {
  json out = json::array();
  for (JobId id : jobs) out.push_back(id.value());
  return out;
}

json to_json(const wire::JobView& j) {
  json allocation = json::array();
  for (const auto& a : j.allocation) {
    allocation.push_back({{"node", a.node}, {"cores", a.cores}, {"gpus", a.gpus}});
  }
  json factors = json::object();
  json raw_factors = json::object();
  for (const auto& f : j.priority_factors) {
    factors[f.name] = f.value;
    raw_factors[f.name] = f.raw;
  }
  json reasons = json::array();
  for (std::size_t i = 0; i < j.reasons.size(); ++i) {
    reasons.push_back({{"code", j.reasons[i]}, {"text", i < j.reason_texts.size() ? j.reason_texts[i] : ""}});
  }
  return json{
      {"id", j.id.value()},
      // A task of an array: its array and index (null otherwise); the array's own line
      // lists its waiting tasks ("[5-100%10]").
      {"array_job_id", j.array_job.value() != 0 ? json(j.array_job.value()) : json(nullptr)},
      {"array_task_id", j.array_job.value() != 0 ? json(j.array_tasks) : json(nullptr)},
      {"name", j.name},
      {"user", j.user},
      {"account", j.account},
      {"partition", j.partition},
      {"qos", j.qos},
      {"state", std::string(to_string(j.state))},
      {"state_code", state_code(j.state)},
      {"reasons", reasons},
      {"submit_time", j.submit_time.seconds()},
      {"start_time", opt_time(j.start_time)},
      {"end_time", opt_time(j.end_time)},
      {"estimated_start", opt_time(j.estimated_start)},
      // An unlimited job has no number of seconds; null says so.
      {"time_limit", j.time_limit.is_infinite() ? json(nullptr) : json(j.time_limit.count())},
      {"nodes", j.nodes},
      {"cores", j.cores},
      {"gpus", j.gpus},
      {"gpu_type", j.gpu_type},
      {"mem_per_node_mb", j.memory_per_node_mb},
      {"mem_per_cpu_mb", j.memory_per_cpu_mb},
      {"allocation", allocation},
      {"priority", j.priority},
      {"priority_factors", factors},
      {"priority_factors_raw", raw_factors},
      {"exit_code", opt(j.exit_code)},
      {"signal", opt(j.signal)},
      {"working_dir", j.working_dir},
      {"stdout_path", j.stdout_path},
      {"stderr_path", j.stderr_path},
      {"requeue_count", j.requeue_count},
      {"state_reason", j.state_reason},
      {"peak_memory_bytes", opt(j.peak_memory_bytes)},
      {"cpu_time_ms", opt(j.cpu_time_ms)},
  };
}

json to_json(const wire::NodeView& n) {
  return json{
      {"name", n.name},
      {"state", n.state},
      {"partitions", n.partitions},
      {"sockets", n.sockets},
      {"cores", n.cores},
      {"threads_per_core", n.threads_per_core},
      {"gpus", n.gpus},
      {"gpu_types", n.gpu_types},
      {"cores_used", n.cores_used},
      {"gpus_used", n.gpus_used},
      {"memory_mb", n.memory_mb},
      {"memory_used_mb", n.memory_used_mb},
      {"last_heartbeat", opt_time(n.last_heartbeat)},
      {"reason", n.reason},
      {"enforcement", n.enforcement},
      {"jobs", ids(n.jobs)},
  };
}

}  // namespace

std::string jobs_json(const wire::JobQueryReply& reply) {
  json jobs = json::array();
  for (const auto& j : reply.jobs) jobs.push_back(to_json(j));
  return json{{"now", reply.now.seconds()}, {"jobs", jobs}}.dump(2) + "\n";
}

std::string job_json(const wire::JobView& job) {
  return to_json(job).dump(2) + "\n";
}

std::string nodes_json(const wire::NodeQueryReply& reply) {
  json nodes = json::array();
  for (const auto& n : reply.nodes) nodes.push_back(to_json(n));
  return json{{"nodes", nodes}}.dump(2) + "\n";
}

std::string node_json(const wire::NodeView& node) {
  return to_json(node).dump(2) + "\n";
}

std::string submit_json(JobId job, const std::vector<std::string>& warnings) {
  return nlohmann::ordered_json{{"job", job.value()}, {"warnings", warnings}}.dump(2) + "\n";
}

std::string control_json(const wire::JobControlReply& reply) {
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& r : reply.results) {
    results.push_back({{"job", r.job.value()}, {"ok", r.ok}, {"message", r.message}});
  }
  return nlohmann::ordered_json{{"results", results}}.dump(2) + "\n";
}

}  // namespace fairway::cli
