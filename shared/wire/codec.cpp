#include "shared/wire/codec.h"

#include <utility>

#include "shared/wire/codec_parts.h"
#include "shared/wire/field_list.h"
#include "shared/wire/job_fields.h"
#include "shared/wire/envelope.h"
#include "shared/wire/msgpack_io.h"
#include "shared/base/try.h"

// ---- the field lists: each drives a message's map size, its keys in this order, and its reading.
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
    r.errors().fail(r.path_of("memory_limit_bytes"), "must be positive, got " + std::to_string(*m.memory_limit_bytes));
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

namespace fairway::wire {
namespace {

using detail::encode_payload;  // the messages not yet on field lists, beside write_fields
using detail::MapReader;
using detail::Packer;
using detail::read_fields;
using detail::write_fields;

Message read_payload(MessageType type, MapReader& r) {
  switch (type) {
    case MessageType::kAgentRegister: return read_fields<AgentRegister>(r);
    case MessageType::kHeartbeat: return read_fields<Heartbeat>(r);
    case MessageType::kJobStatusUpdate: return read_fields<JobStatusUpdate>(r);
    case MessageType::kLaunchJob: return read_fields<LaunchJob>(r);
    case MessageType::kSignalJob: return read_fields<SignalJob>(r);
    case MessageType::kAck: return read_fields<Ack>(r);
    case MessageType::kErrorReply: return read_fields<ErrorReply>(r);
    case MessageType::kSubmitRequest: return read_fields<SubmitRequest>(r);
    case MessageType::kSubmitReply: return read_fields<SubmitReply>(r);
    case MessageType::kJobQuery:
    case MessageType::kJobQueryReply:
    case MessageType::kJobControl:
    case MessageType::kJobControlReply:
    case MessageType::kNodeQuery:
    case MessageType::kNodeQueryReply:
    case MessageType::kSubmitBatch:
    case MessageType::kSubmitBatchReply:
    case MessageType::kNodeControl:
    case MessageType::kNodeControlReply: return detail::read_client_payload(type, r);
    case MessageType::kAuthenticatedRequest: return read_fields<AuthenticatedRequest>(r);
    case MessageType::kHeartbeatReply: return read_fields<HeartbeatReply>(r);
    case MessageType::kMetricsQuery:
    case MessageType::kMetricsReply:
    case MessageType::kPartitionQuery:
    case MessageType::kPartitionQueryReply:
    case MessageType::kSharesQuery:
    case MessageType::kSharesReply:
    case MessageType::kJobUpdate:
    case MessageType::kSetTimeLimit:
    case MessageType::kSendSignal: return detail::read_report_payload(type, r);
    case MessageType::kReservationQuery:
    case MessageType::kReservationQueryReply: return detail::read_reservation_payload(type, r);
    case MessageType::kStepRequest:
    case MessageType::kStepReply:
    case MessageType::kLaunchStep:
    case MessageType::kStepIo:
    case MessageType::kStepEnded: return detail::read_step_payload(type, r);
    case MessageType::kConfigQuery:
    case MessageType::kConfigReply: return detail::read_config_payload(type, r);
  }
  return Ack{};  // unreachable: open_frame() accepts only the types above
}

}  // namespace

std::string encode(const Message& m) {
  msgpack::sbuffer payload;
  Packer pk(payload);
  std::visit(
      [&](const auto& msg) {
        if constexpr (requires(detail::FieldCounter& c) { fields(c, msg); }) {
          write_fields(pk, msg);
        } else {
          encode_payload(pk, msg);
        }
      },
      m);
  return detail::seal(message_type(m), payload);
}

namespace {

Result<Message> decode_frame(std::string_view frame, bool escape) {
  try {
    FAIRWAY_TRY_ASSIGN(opened, detail::open_frame(frame));
    detail::Errors errors;
    errors.escape_control = escape;
    MapReader reader(errors, opened.payload, std::string(to_string(opened.type)));
    Message m = read_payload(opened.type, reader);
    if (errors.failed()) return std::unexpected(errors.take());
    return m;
  } catch (const std::exception& e) {
    // Only allocation failure can get here; an untrusted frame must still not crash us.
    return invalid_argument(std::string("wire: frame: ") + e.what());
  } catch (...) {
    return invalid_argument("wire: frame: unexpected failure");
  }
}

}  // namespace

Result<Message> decode(std::string_view frame) { return decode_frame(frame, false); }

Result<Message> decode_for_terminal(std::string_view frame) { return decode_frame(frame, true); }

}  // namespace fairway::wire
