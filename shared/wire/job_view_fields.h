// The field list of a JobView (squeue, show job, sacct and the job-query replies): a map
// with string keys, optional fields left out when unset, every field checked when read.
#pragma once

#include "shared/wire/field_list.h"
#include "shared/wire/job_fields.h"

namespace fairway::wire::detail {

template <class V, FieldsOf<JobAllocationView> M>
void fields(V& v, M& a) {
  v.field("node", a.node);
  v.field("cores", a.cores);
  v.field("gpus", a.gpus);
}

template <class V, FieldsOf<PriorityFactor> M>
void fields(V& v, M& f) {
  v.field("name", f.name);
  v.field("value", f.value);
  v.field("raw", f.raw, kDefaulted);  // came later: older peers send none
}

template <class V, FieldsOf<StepView> M>
void fields(V& v, M& s) {
  v.field("step", s.step, kCount);
  v.field("name", s.name);
  v.field("state", s.state);
  v.field("start_time", s.start_time);
  v.field("end_time", s.end_time);
  v.field("exit_code", s.exit_code, kWhenSet);
  v.field("signal", s.signal, kWhenSet);
  v.field("ntasks", s.ntasks, kCount);
  v.field("nodes", s.nodes, kCount);
  v.field("max_rss_kb", s.max_rss_kb);
  v.field("cpu_us", s.cpu_us);
}

inline void check_fields(MapReader& r, StepView& s) {
  if (s.exit_code < 0 || s.signal < 0) {
    r.errors().fail(r.path_of(s.exit_code < 0 ? "exit_code" : "signal"), "must not be negative");
  } else if ((s.max_rss_kb && *s.max_rss_kb < 0) || (s.cpu_us && *s.cpu_us < 0)) {
    r.errors().fail(r.path_of(s.max_rss_kb && *s.max_rss_kb < 0 ? "max_rss_kb" : "cpu_us"),
                    "must not be negative");
  }
}

template <class V, FieldsOf<JobView> M>
void fields(V& v, M& j) {
  v.field("id", j.id);
  v.field("name", j.name);
  v.field("user", j.user);
  v.field("account", j.account);
  v.field("partition", j.partition);
  v.field("qos", j.qos);
  v.field("state", j.state);
  v.field("reasons", j.reasons);
  v.field("reason_texts", j.reason_texts);
  v.field("submit_time", j.submit_time);
  v.field("start_time", j.start_time);
  v.field("end_time", j.end_time);
  v.field("estimated_start", j.estimated_start);
  v.field("predicted_runtime", j.predicted_runtime);
  v.field("estimated_start_by_limit", j.estimated_start_by_limit);
  v.field("time_limit", j.time_limit, kCount);
  v.field("nodes", j.nodes, kCount);
  v.field("cores", j.cores, kCount);
  v.field("gpus", j.gpus, kCount);
  v.field("gpu_type", j.gpu_type);
  v.field("mem_per_node_mb", j.memory_per_node_mb, kWhenSet);
  v.field("mem_per_cpu_mb", j.memory_per_cpu_mb, kWhenSet);
  v.field("allocation", j.allocation);
  v.field("priority", j.priority);
  v.field("priority_factors", j.priority_factors);
  v.field("exit_code", j.exit_code);
  v.field("signal", j.signal);
  v.field("working_dir", j.working_dir);
  v.field("stdout_path", j.stdout_path);
  v.field("stderr_path", j.stderr_path);
  v.field("requeue_count", j.requeue_count, kCount);
  v.field("state_reason", j.state_reason, kWhenSet);
  v.field("reservation", j.reservation, kWhenSet);
  v.field("peak_memory_bytes", j.peak_memory_bytes);
  v.field("cpu_time_ms", j.cpu_time_ms);
  v.together(j.array_job.value() != 0, [&](auto& w) {
    w.field("array_job", j.array_job);
    w.field("array_tasks", j.array_tasks);
  });
  v.field("uid", j.uid);
  v.field("gid", j.gid);
  v.field("ntasks", j.ntasks, kWhenSet);
  v.field("cpus_per_task", j.cpus_per_task, kWhenSet);
  v.field("interactive", j.interactive, kWhenSet);
  v.field("cancelling", j.cancelling, kWhenSet);
  v.field("stopping_as", j.stopping_as);
  v.field("comment", j.comment, kWhenSet);
  v.field("nice", j.nice, kWhenSet);
  v.field("steps", j.steps, kWhenSet);
  v.field("ntasks_per_node", j.ntasks_per_node, kWhenSet);
  v.field("exclusive", j.exclusive, kWhenSet);
  v.field("req_nodes", j.req_nodes, kWhenSet);
  v.field("exc_nodes", j.exc_nodes, kWhenSet);
  v.field("features", j.features, kWhenSet);
  v.field("no_requeue", j.no_requeue, kWhenSet);
  v.field("mail_events", j.mail_events, kWhenSet, MailEvents{});
  v.field("mail_user", j.mail_user, kWhenSet);
  gpu_ask_fields(v, j.gpu_ask);
}

inline void check_fields(MapReader& r, JobView& j) {
  if (j.memory_per_node_mb < 0 || j.memory_per_cpu_mb < 0) {
    r.errors().fail(r.path_of("mem_per_node_mb"), "memory must not be negative");
  } else if (j.ntasks < 0 || j.cpus_per_task < 0) {
    r.errors().fail(r.path_of(j.ntasks < 0 ? "ntasks" : "cpus_per_task"), "must not be negative");
  } else if (j.ntasks_per_node < 0) {
    r.errors().fail(r.path_of("ntasks_per_node"), "must not be negative");
  }
}

}  // namespace fairway::wire::detail
