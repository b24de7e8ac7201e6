// The field lists of the agent messages and of the replies and requests beside them in
// messages.h (AgentRegister ... SubmitReply); SubmitRequest's is in job_fields.h.
#pragma once

#include <string>

#include "shared/wire/field_list.h"
#include "shared/wire/job_fields.h"

namespace fairway::wire::detail {

template <class V, FieldsOf<RunningJob> M>
void fields(V& v, M& m) {
  v.field("job", m.job);
  v.field("cores", m.cores);
  v.field("gpus", m.gpus);
  v.field("start", m.start);
  v.field("pid", m.pid, kCount);
}

template <class V, FieldsOf<AgentRegister> M>
void fields(V& v, M& m) {
  v.field("node", m.node);
  v.field("agent_version", m.agent_version);
  v.field("enforcement", m.enforcement, kDefaulted);
  v.field("topology", m.topology);
  v.field("running", m.running);
}

template <class V, FieldsOf<Heartbeat> M>
void fields(V& v, M& m) {
  v.field("node", m.node);
  v.field("seq", m.seq);
  v.field("time", m.time);
}

// Optional fields are left out when unset rather than sent as nil.
template <class V, FieldsOf<JobStatusUpdate> M>
void fields(V& v, M& m) {
  v.field("node", m.node);
  v.field("seq", m.seq);
  v.field("job", m.job);
  v.field("state", m.state);
  v.field("exit_code", m.exit_code);
  v.field("signal", m.signal);
  v.field("time", m.time);
  v.field("reason", m.reason, kWhenSet);
  v.field("peak_memory_bytes", m.peak_memory_bytes);
  v.field("cpu_time_ms", m.cpu_time_ms);
  v.field("attempt", m.attempt);
}

inline void check_fields(MapReader& r, JobStatusUpdate& m) {
  if (m.attempt && *m.attempt < 0) {
    r.errors().fail(r.path_of("attempt"), "attempt " + std::to_string(*m.attempt) + " is negative");
  }
}

template <class V, FieldsOf<LaunchJob> M>
void fields(V& v, M& m) {
  v.field("extern_only", m.extern_only, kWhenSet);
  // A task's keys come together: any one of them makes the rest required.
  v.together(m.array.is_task(), [&](auto& w) {
    w.field("array_job", m.array.array_job);
    w.field("array_task", m.array.task, kCount);
    w.field("array_task_count", m.array.count, {.min = 1});
    w.field("array_task_min", m.array.min, kCount);
    w.field("array_task_max", m.array.max, kCount);
    w.field("array_task_step", m.array.step, {.min = 1});
  });
  v.field("job", m.job);
  v.field("user", m.user);
  v.field("account", m.account);
  v.field("name", m.name);
  fields(v, m.program);
  v.field("cores", m.cores);
  v.field("gpus", m.gpus);
  v.field("time_limit", m.time_limit, kCount);
  v.field("nodelist", m.nodelist);
  v.field("partition", m.partition);
  v.field("restarts", m.restarts, kCount);
  v.field("fence_gpu_sockets", m.fence_gpu_sockets, kDefaulted);
  fields(v, m.tasks);
  v.field("node_cores", m.node_cores, {.presence = Presence::kDefaulted, .min = 1});
  v.field("memory_limit_bytes", m.memory_limit_bytes);
  warning_fields(v, m.warn_signal, m.warn_before_s, m.warn_batch_only);
  v.field("uid", m.uid);
  v.field("gid", m.gid);
}

inline void check_fields(MapReader& r, LaunchJob& m) {
  if (m.memory_limit_bytes && *m.memory_limit_bytes <= 0) {
    r.errors().fail(r.path_of("memory_limit_bytes"),
                    "must be positive, got " + std::to_string(*m.memory_limit_bytes));
  }
}

template <class V, FieldsOf<SignalJob> M>
void fields(V& v, M& m) {
  v.field("job", m.job);
  v.field("signal", m.signal, kCount);
  v.field("grace", m.grace, kCount);
}

template <class V, FieldsOf<Ack> M>
void fields(V& v, M& m) {
  v.field("seq", m.seq);
}

template <class V, FieldsOf<HeartbeatReply> M>
void fields(V& v, M& m) {
  v.field("seq", m.seq);
}

template <class V, FieldsOf<AuthenticatedRequest> M>
void fields(V& v, M& m) {
  v.field("credential", m.credential);
  v.field("request", m.request);
}

template <class V, FieldsOf<ErrorReply> M>
void fields(V& v, M& m) {
  v.field("code", m.code, kCount);
  v.field("message", m.message);
}

// A test_only reply says what would have happened; a real one only the job's id.
template <class V, FieldsOf<SubmitReply> M>
void fields(V& v, M& m) {
  v.field("job", m.job);
  v.field("test_only", m.test_only, kWhenSet);
  v.when(m.test_only, [&](auto& w) {
    w.field("estimated_start", m.estimated_start);
    w.field("partition", m.partition);
    w.field("nodes", m.nodes);
    w.field("cores", m.cores, kCount);
    w.field("reason", m.reason);
  });
}

}  // namespace fairway::wire::detail
