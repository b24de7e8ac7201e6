// The JobView payload (squeue, show job, sacct and the job-query replies): a map with string
// keys, optional fields left out when unset, every field checked when read.
#include "shared/wire/codec_parts.h"

namespace fairway::wire::detail {
namespace {

JobState read_state(MapReader& r, std::string_view key) {
  const std::string name = r.str(key);
  if (r.failed()) return JobState::kPending;
  if (auto s = job_state_from_string(name)) return *s;
  r.errors().fail(r.path_of(key), "unknown job state \"" + name.substr(0, 64) + "\"");
  return JobState::kPending;
}

void put_allocation(Packer& pk, const std::vector<JobAllocationView>& allocation) {
  pk.pack_array(size32(allocation.size()));
  for (const auto& a : allocation) {
    pk.pack_map(3);
    put_kv(pk, "node", std::string_view(a.node));
    put_kv(pk, "cores", a.cores);
    put_kv(pk, "gpus", a.gpus);
  }
}

void put_priority_factors(Packer& pk, const std::vector<PriorityFactor>& factors) {
  pk.pack_array(size32(factors.size()));
  for (const auto& f : factors) {
    pk.pack_map(3);
    put_kv(pk, "name", std::string_view(f.name));
    put_kv(pk, "value", f.value);
    put_kv(pk, "raw", f.raw);
  }
}

}  // namespace

void put_job_view(Packer& pk, const JobView& j) {
  const std::uint32_t optionals = (j.start_time ? 1 : 0) + (j.end_time ? 1 : 0) +
                                  (j.estimated_start ? 1 : 0) + (j.predicted_runtime ? 1 : 0) +
                                  (j.estimated_start_by_limit ? 1 : 0) + (j.exit_code ? 1 : 0) +
                                  (j.signal ? 1 : 0) + (j.state_reason.empty() ? 0 : 1) +
                                  (j.peak_memory_bytes ? 1 : 0) + (j.cpu_time_ms ? 1 : 0) +
                                  (j.reservation.empty() ? 0 : 1) + (j.memory_per_node_mb ? 1 : 0) +
                                  (j.memory_per_cpu_mb ? 1 : 0) + (j.array_job.value() != 0 ? 2 : 0) +
                                  (j.uid ? 1 : 0) + (j.gid ? 1 : 0) + (j.ntasks != 0 ? 1 : 0) +
                                  (j.cpus_per_task != 0 ? 1 : 0) + (j.interactive ? 1 : 0) +
                                  (j.steps.empty() ? 0 : 1) + (j.cancelling ? 1 : 0) + (j.stopping_as ? 1 : 0) +
                                  (j.comment.empty() ? 0 : 1) + (j.nice != 0 ? 1 : 0);
  pk.pack_map(22 + optionals);
  put_kv(pk, "id", j.id.value());
  put_kv(pk, "name", std::string_view(j.name));
  put_kv(pk, "user", std::string_view(j.user));
  put_kv(pk, "account", std::string_view(j.account));
  put_kv(pk, "partition", std::string_view(j.partition));
  put_kv(pk, "qos", std::string_view(j.qos));
  put_kv(pk, "state", to_string(j.state));
  put_kv(pk, "reasons", j.reasons);
  put_kv(pk, "reason_texts", j.reason_texts);
  put_kv(pk, "submit_time", j.submit_time.seconds());
  put_opt_time(pk, "start_time", j.start_time);
  put_opt_time(pk, "end_time", j.end_time);
  put_opt_time(pk, "estimated_start", j.estimated_start);
  if (j.predicted_runtime) put_kv(pk, "predicted_runtime", j.predicted_runtime->count());
  put_opt_time(pk, "estimated_start_by_limit", j.estimated_start_by_limit);
  put_kv(pk, "time_limit", j.time_limit.count());
  put_kv(pk, "nodes", j.nodes);
  put_kv(pk, "cores", j.cores);
  put_kv(pk, "gpus", j.gpus);
  put_kv(pk, "gpu_type", std::string_view(j.gpu_type));
  if (j.memory_per_node_mb) put_kv(pk, "mem_per_node_mb", j.memory_per_node_mb);
  if (j.memory_per_cpu_mb) put_kv(pk, "mem_per_cpu_mb", j.memory_per_cpu_mb);
  put(pk, std::string_view("allocation"));
  put_allocation(pk, j.allocation);
  put_kv(pk, "priority", j.priority);
  put(pk, std::string_view("priority_factors"));
  put_priority_factors(pk, j.priority_factors);
  if (j.exit_code) put_kv(pk, "exit_code", *j.exit_code);
  if (j.signal) put_kv(pk, "signal", *j.signal);
  put_kv(pk, "working_dir", std::string_view(j.working_dir));
  put_kv(pk, "stdout_path", std::string_view(j.stdout_path));
  put_kv(pk, "stderr_path", std::string_view(j.stderr_path));
  put_kv(pk, "requeue_count", j.requeue_count);
  if (!j.state_reason.empty()) put_kv(pk, "state_reason", std::string_view(j.state_reason));
  if (!j.reservation.empty()) put_kv(pk, "reservation", std::string_view(j.reservation));
  if (j.peak_memory_bytes) put_kv(pk, "peak_memory_bytes", *j.peak_memory_bytes);
  if (j.cpu_time_ms) put_kv(pk, "cpu_time_ms", *j.cpu_time_ms);
  if (j.array_job.value() != 0) {
    put_kv(pk, "array_job", j.array_job.value());
    put_kv(pk, "array_tasks", std::string_view(j.array_tasks));
  }
  if (j.uid) put_kv(pk, "uid", static_cast<std::int64_t>(*j.uid));
  if (j.gid) put_kv(pk, "gid", static_cast<std::int64_t>(*j.gid));
  if (j.ntasks != 0) put_kv(pk, "ntasks", j.ntasks);
  if (j.cpus_per_task != 0) put_kv(pk, "cpus_per_task", j.cpus_per_task);
  if (j.interactive) put_kv(pk, "interactive", true);
  if (j.cancelling) put_kv(pk, "cancelling", true);
  if (j.stopping_as) put_kv(pk, "stopping_as", to_string(*j.stopping_as));
  if (!j.comment.empty()) put_kv(pk, "comment", std::string_view(j.comment));
  if (j.nice != 0) put_kv(pk, "nice", j.nice);
  if (!j.steps.empty()) {
    put(pk, std::string_view("steps"));
    pk.pack_array(static_cast<std::uint32_t>(j.steps.size()));
    for (const StepView& s : j.steps) {
      pk.pack_map(6 + (s.end_time ? 1 : 0) + (s.exit_code != 0 ? 1 : 0) + (s.signal != 0 ? 1 : 0) +
                  (s.max_rss_kb ? 1 : 0) + (s.cpu_us ? 1 : 0));
      put_kv(pk, "step", s.step);
      put_kv(pk, "name", std::string_view(s.name));
      put_kv(pk, "state", to_string(s.state));
      put_kv(pk, "start_time", s.start_time.seconds());
      put_opt_time(pk, "end_time", s.end_time);
      if (s.exit_code != 0) put_kv(pk, "exit_code", s.exit_code);
      if (s.signal != 0) put_kv(pk, "signal", s.signal);
      put_kv(pk, "ntasks", s.ntasks);
      put_kv(pk, "nodes", s.nodes);
      if (s.max_rss_kb) put_kv(pk, "max_rss_kb", *s.max_rss_kb);
      if (s.cpu_us) put_kv(pk, "cpu_us", *s.cpu_us);
    }
  }
}

JobView read_job_view(MapReader& r) {
  JobView j;
  j.id = JobId(r.u64("id"));
  j.name = r.str("name");
  j.user = r.str("user");
  j.account = r.str("account");
  j.partition = r.str("partition");
  j.qos = r.str("qos");
  j.state = read_state(r, "state");
  j.reasons = r.str_list("reasons");
  j.reason_texts = r.str_list("reason_texts");
  j.submit_time = Time::from_seconds(r.i64("submit_time"));
  j.start_time = read_opt_time(r, "start_time");
  j.end_time = read_opt_time(r, "end_time");
  j.estimated_start = read_opt_time(r, "estimated_start");
  if (auto p = r.opt_i64("predicted_runtime")) j.predicted_runtime = Duration::seconds(*p);
  j.estimated_start_by_limit = read_opt_time(r, "estimated_start_by_limit");
  j.time_limit = Duration::seconds(r.i64("time_limit", 0));
  j.nodes = r.i32("nodes", 0);
  j.cores = r.i32("cores", 0);
  j.gpus = r.i32("gpus", 0);
  j.gpu_type = r.str("gpu_type");
  j.memory_per_node_mb = r.opt_i64("mem_per_node_mb").value_or(0);
  j.memory_per_cpu_mb = r.opt_i64("mem_per_cpu_mb").value_or(0);
  if (j.memory_per_node_mb < 0 || j.memory_per_cpu_mb < 0) {
    r.errors().fail(r.path_of("mem_per_node_mb"), "memory must not be negative");
  }
  const auto allocation = r.list("allocation");
  for (std::size_t i = 0; i < allocation.size() && !r.failed(); ++i) {
    MapReader a(r.errors(), allocation[i], item_path(r, "allocation", i));
    JobAllocationView v;
    v.node = a.str("node");
    v.cores = a.i32_list("cores");
    v.gpus = a.i32_list("gpus");
    j.allocation.push_back(std::move(v));
  }
  j.priority = r.f64("priority");
  const auto factors = r.list("priority_factors");
  for (std::size_t i = 0; i < factors.size() && !r.failed(); ++i) {
    MapReader f(r.errors(), factors[i], item_path(r, "priority_factors", i));
    PriorityFactor pf;
    pf.name = f.str("name");
    pf.value = f.f64("value");
    if (f.has("raw")) pf.raw = f.f64("raw");  // came later: older peers send none
    j.priority_factors.push_back(std::move(pf));
  }
  j.exit_code = r.opt_i32("exit_code");
  j.signal = r.opt_i32("signal");
  j.working_dir = r.str("working_dir");
  j.stdout_path = r.str("stdout_path");
  j.stderr_path = r.str("stderr_path");
  j.requeue_count = r.i32("requeue_count", 0);
  j.state_reason = r.opt_str("state_reason");
  j.reservation = r.opt_str("reservation");
  j.peak_memory_bytes = r.opt_i64("peak_memory_bytes");
  j.cpu_time_ms = r.opt_i64("cpu_time_ms");
  if (r.has("array_job") || r.has("array_tasks")) {
    j.array_job = JobId(r.u64("array_job"));
    j.array_tasks = r.str("array_tasks");
  }
  j.uid = read_id(r, "uid");
  j.gid = read_id(r, "gid");
  j.ntasks = r.opt_i32("ntasks").value_or(0);
  j.cpus_per_task = r.opt_i32("cpus_per_task").value_or(0);
  j.interactive = r.opt_boolean("interactive").value_or(false);
  j.cancelling = r.opt_boolean("cancelling").value_or(false);
  if (r.has("stopping_as")) j.stopping_as = read_state(r, "stopping_as");
  j.comment = r.opt_str("comment");
  j.nice = r.opt_i32("nice").value_or(0);
  if (r.has("steps")) {
    const auto steps = r.list("steps");
    for (std::size_t i = 0; i < steps.size() && !r.failed(); ++i) {
      MapReader m(r.errors(), steps[i], item_path(r, "steps", i));
      StepView s;
      s.step = m.i32("step", 0);
      s.name = m.str("name");
      s.state = read_state(m, "state");
      s.start_time = Time::from_seconds(m.i64("start_time"));
      s.end_time = read_opt_time(m, "end_time");
      s.exit_code = m.opt_i32("exit_code").value_or(0);
      s.signal = m.opt_i32("signal").value_or(0);
      if (!m.failed() && (s.exit_code < 0 || s.signal < 0)) {
        m.errors().fail(m.path_of(s.exit_code < 0 ? "exit_code" : "signal"), "must not be negative");
      }
      s.ntasks = m.i32("ntasks", 0);
      s.nodes = m.i32("nodes", 0);
      s.max_rss_kb = m.opt_i64("max_rss_kb");
      s.cpu_us = m.opt_i64("cpu_us");
      if (!m.failed() && ((s.max_rss_kb && *s.max_rss_kb < 0) || (s.cpu_us && *s.cpu_us < 0))) {
        m.errors().fail(m.path_of(s.max_rss_kb && *s.max_rss_kb < 0 ? "max_rss_kb" : "cpu_us"), "must not be negative");
      }
      j.steps.push_back(std::move(s));
    }
  }
  if (!r.failed() && (j.ntasks < 0 || j.cpus_per_task < 0)) {
    r.errors().fail(r.path_of(j.ntasks < 0 ? "ntasks" : "cpus_per_task"), "must not be negative");
  }
  return j;
}

}  // namespace fairway::wire::detail
