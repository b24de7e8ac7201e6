#include "shared/wire/codec.h"

#include <utility>

#include "shared/wire/codec_parts.h"
#include "shared/wire/envelope.h"
#include "shared/wire/msgpack_io.h"
#include "shared/base/try.h"

namespace fairway::wire {
namespace {

using detail::encode_payload;  // the client messages' encoders, beside the ones below
using detail::MapReader;
using detail::Packer;
using detail::put;
using detail::put_kv;
using detail::put_layout;
using detail::put_program;
using detail::put_warning;
using detail::read_id;
using detail::read_layout;
using detail::read_program;
using detail::read_warning;
using detail::kLayoutKeys;
using detail::kProgramKeys;
using detail::kWarningKeys;

// ---- encoding: every struct is a map; the count passed to pack_map must match the keys.

void encode_payload(Packer& pk, const AgentRegister& m) {
  pk.pack_map(5);
  put_kv(pk, "node", std::string_view(m.node));
  put_kv(pk, "agent_version", std::string_view(m.agent_version));
  put_kv(pk, "enforcement", std::string_view(m.enforcement));
  put(pk, std::string_view("topology"));
  put(pk, m.topology);
  put(pk, std::string_view("running"));
  pk.pack_array(static_cast<std::uint32_t>(m.running.size()));
  for (const auto& r : m.running) {
    pk.pack_map(5);
    put_kv(pk, "job", r.job.value());
    put_kv(pk, "cores", r.cores);
    put_kv(pk, "gpus", r.gpus);
    put_kv(pk, "start", r.start.seconds());
    put_kv(pk, "pid", r.pid);
  }
}

void encode_payload(Packer& pk, const Heartbeat& m) {
  pk.pack_map(3);
  put_kv(pk, "node", std::string_view(m.node));
  put_kv(pk, "seq", m.seq);
  put_kv(pk, "time", m.time.seconds());
}

void encode_payload(Packer& pk, const JobStatusUpdate& m) {
  // Optional fields are left out when unset rather than sent as nil.
  const std::uint32_t n = 5 + (m.exit_code ? 1 : 0) + (m.signal ? 1 : 0) + (m.reason.empty() ? 0 : 1) +
                          (m.peak_memory_bytes ? 1 : 0) + (m.cpu_time_ms ? 1 : 0) + (m.attempt ? 1 : 0);
  pk.pack_map(n);
  put_kv(pk, "node", std::string_view(m.node));
  put_kv(pk, "seq", m.seq);
  put_kv(pk, "job", m.job.value());
  put_kv(pk, "state", to_string(m.state));
  if (m.exit_code) put_kv(pk, "exit_code", *m.exit_code);
  if (m.signal) put_kv(pk, "signal", *m.signal);
  put_kv(pk, "time", m.time.seconds());
  if (!m.reason.empty()) put_kv(pk, "reason", std::string_view(m.reason));
  if (m.peak_memory_bytes) put_kv(pk, "peak_memory_bytes", *m.peak_memory_bytes);
  if (m.cpu_time_ms) put_kv(pk, "cpu_time_ms", *m.cpu_time_ms);
  if (m.attempt) put_kv(pk, "attempt", *m.attempt);
}

void encode_payload(Packer& pk, const LaunchJob& m) {
  const bool task = m.array.is_task();
  pk.pack_map(12 + kProgramKeys + kLayoutKeys + kWarningKeys + (m.uid ? 1 : 0) + (m.gid ? 1 : 0) +
              (m.memory_limit_bytes ? 1 : 0) + (task ? 6 : 0) + (m.extern_only ? 1 : 0));
  if (m.extern_only) put_kv(pk, "extern_only", true);
  if (task) {
    put_kv(pk, "array_job", m.array.array_job.value());
    put_kv(pk, "array_task", m.array.task);
    put_kv(pk, "array_task_count", m.array.count);
    put_kv(pk, "array_task_min", m.array.min);
    put_kv(pk, "array_task_max", m.array.max);
    put_kv(pk, "array_task_step", m.array.step);
  }
  put_kv(pk, "job", m.job.value());
  put_kv(pk, "user", std::string_view(m.user));
  put_kv(pk, "account", std::string_view(m.account));
  put_kv(pk, "name", std::string_view(m.name));
  put_program(pk, m.program);
  put_kv(pk, "cores", m.cores);
  put_kv(pk, "gpus", m.gpus);
  put_kv(pk, "time_limit", m.time_limit.count());
  put_kv(pk, "nodelist", m.nodelist);
  put_kv(pk, "partition", std::string_view(m.partition));
  put_kv(pk, "restarts", m.restarts);
  put_kv(pk, "fence_gpu_sockets", m.fence_gpu_sockets);
  put_layout(pk, m.tasks);
  put_kv(pk, "node_cores", m.node_cores);
  if (m.memory_limit_bytes) put_kv(pk, "memory_limit_bytes", *m.memory_limit_bytes);
  put_warning(pk, m.warn_signal, m.warn_before_s, m.warn_batch_only);
  if (m.uid) put_kv(pk, "uid", static_cast<std::int64_t>(*m.uid));
  if (m.gid) put_kv(pk, "gid", static_cast<std::int64_t>(*m.gid));
}

void encode_payload(Packer& pk, const SignalJob& m) {
  pk.pack_map(3);
  put_kv(pk, "job", m.job.value());
  put_kv(pk, "signal", m.signal);
  put_kv(pk, "grace", m.grace.count());
}

void encode_payload(Packer& pk, const Ack& m) {
  pk.pack_map(1);
  put_kv(pk, "seq", m.seq);
}

void encode_payload(Packer& pk, const HeartbeatReply& m) {
  pk.pack_map(1);
  put_kv(pk, "seq", m.seq);
}

void encode_payload(Packer& pk, const AuthenticatedRequest& m) {
  pk.pack_map(2);
  put_kv(pk, "credential", std::string_view(m.credential));
  put_kv(pk, "request", std::string_view(m.request));
}

void encode_payload(Packer& pk, const ErrorReply& m) {
  pk.pack_map(2);
  put_kv(pk, "code", static_cast<std::int32_t>(m.code));
  put_kv(pk, "message", std::string_view(m.message));
}

void encode_payload(Packer& pk, const SubmitRequest& m) { detail::encode_submit_request(pk, m); }

void encode_payload(Packer& pk, const SubmitReply& m) {
  if (!m.test_only) {
    pk.pack_map(1);
    put_kv(pk, "job", m.job.value());
    return;
  }
  pk.pack_map(6 + (m.estimated_start ? 1 : 0));
  put_kv(pk, "job", m.job.value());
  put_kv(pk, "test_only", true);
  detail::put_opt_time(pk, "estimated_start", m.estimated_start);
  put_kv(pk, "partition", std::string_view(m.partition));
  put_kv(pk, "nodes", m.nodes);
  put_kv(pk, "cores", m.cores);
  put_kv(pk, "reason", std::string_view(m.reason));
}

// ---- decoding: each reader fills what it can; the caller checks the sticky error once.

AgentRegister read_agent_register(MapReader& r) {
  AgentRegister m;
  m.node = r.str("node");
  m.agent_version = r.str("agent_version");
  m.enforcement = r.opt_str("enforcement");
  m.topology = r.topology("topology");
  const auto running = r.list("running");
  m.running.reserve(running.size());
  for (std::size_t i = 0; i < running.size() && !r.failed(); ++i) {
    MapReader j(r.errors(), running[i], r.path_of("running") + "[" + std::to_string(i) + "]");
    RunningJob rj;
    rj.job = JobId(j.u64("job"));
    rj.cores = j.i32_list("cores");
    rj.gpus = j.i32_list("gpus");
    rj.start = Time::from_seconds(j.i64("start"));
    rj.pid = j.i64("pid", 0);
    m.running.push_back(std::move(rj));
  }
  return m;
}

Heartbeat read_heartbeat(MapReader& r) {
  Heartbeat m;
  m.node = r.str("node");
  m.seq = r.u64("seq");
  m.time = Time::from_seconds(r.i64("time"));
  return m;
}

JobStatusUpdate read_job_status(MapReader& r) {
  JobStatusUpdate m;
  m.node = r.str("node");
  m.seq = r.u64("seq");
  m.job = JobId(r.u64("job"));
  const std::string state = r.str("state");
  if (!r.failed()) {
    if (auto s = job_state_from_string(state)) {
      m.state = *s;
    } else {
      r.errors().fail(r.path_of("state"), "unknown job state \"" + state.substr(0, 64) + "\"");
    }
  }
  m.exit_code = r.opt_i32("exit_code");
  m.reason = r.opt_str("reason");
  m.peak_memory_bytes = r.opt_i64("peak_memory_bytes");
  m.cpu_time_ms = r.opt_i64("cpu_time_ms");
  m.signal = r.opt_i32("signal");
  m.attempt = r.opt_i32("attempt");
  if (m.attempt && *m.attempt < 0) {
    r.errors().fail(r.path_of("attempt"), "attempt " + std::to_string(*m.attempt) + " is negative");
  }
  m.time = Time::from_seconds(r.i64("time"));
  return m;
}

LaunchJob read_launch(MapReader& r) {
  LaunchJob m;
  m.job = JobId(r.u64("job"));
  m.user = r.str("user");
  m.account = r.str("account");
  m.name = r.str("name");
  m.program = read_program(r);
  m.cores = r.i32_list("cores");
  m.gpus = r.i32_list("gpus");
  m.time_limit = Duration::seconds(r.i64("time_limit", 0));
  m.nodelist = r.str_list("nodelist");
  m.partition = r.str("partition");
  m.restarts = r.i32("restarts", 0);
  m.fence_gpu_sockets = r.opt_boolean("fence_gpu_sockets").value_or(true);
  m.tasks = read_layout(r);
  if (r.has("node_cores")) m.node_cores = r.i32_list("node_cores", 1);
  m.memory_limit_bytes = r.opt_i64("memory_limit_bytes");
  read_warning(r, m.warn_signal, m.warn_before_s, m.warn_batch_only);
  if (m.memory_limit_bytes && *m.memory_limit_bytes <= 0) {
    r.errors().fail(r.path_of("memory_limit_bytes"), "must be positive, got " + std::to_string(*m.memory_limit_bytes));
  }
  m.uid = read_id(r, "uid");
  m.gid = read_id(r, "gid");
  m.extern_only = r.opt_boolean("extern_only").value_or(false);
  // A task's keys come together: any one of them makes the rest required.
  if (r.has("array_job") || r.has("array_task")) {
    m.array.array_job = JobId(r.u64("array_job"));
    m.array.task = r.i32("array_task", 0);
    m.array.count = r.i32("array_task_count", 1);
    m.array.min = r.i32("array_task_min", 0);
    m.array.max = r.i32("array_task_max", 0);
    m.array.step = r.i32("array_task_step", 1);
  }
  return m;
}

SignalJob read_signal(MapReader& r) {
  SignalJob m;
  m.job = JobId(r.u64("job"));
  m.signal = r.i32("signal", 0);
  m.grace = Duration::seconds(r.i64("grace", 0));
  return m;
}

Ack read_ack(MapReader& r) { return Ack{r.u64("seq")}; }

HeartbeatReply read_heartbeat_reply(MapReader& r) { return HeartbeatReply{r.u64("seq")}; }

AuthenticatedRequest read_authenticated_request(MapReader& r) {
  AuthenticatedRequest m;
  m.credential = r.str("credential");
  m.request = r.str("request");
  return m;
}

ErrorReply read_error_reply(MapReader& r) {
  ErrorReply m;
  const std::int32_t code = r.i32("code", 0);
  if (!r.failed() && code > static_cast<std::int32_t>(ErrorCode::kUnavailable)) {
    r.errors().fail(r.path_of("code"), "unknown error code " + std::to_string(code));
  }
  m.code = static_cast<ErrorCode>(code);
  m.message = r.str("message");
  return m;
}

SubmitReply read_submit_reply(MapReader& r) {
  SubmitReply m;
  m.job = JobId(r.u64("job"));
  m.test_only = r.opt_boolean("test_only").value_or(false);
  if (!m.test_only) return m;
  m.estimated_start = detail::read_opt_time(r, "estimated_start");
  m.partition = r.str("partition");
  m.nodes = r.str_list("nodes");
  m.cores = r.i64("cores", 0);
  m.reason = r.str("reason");
  return m;
}

Message read_payload(MessageType type, MapReader& r) {
  switch (type) {
    case MessageType::kAgentRegister: return read_agent_register(r);
    case MessageType::kHeartbeat: return read_heartbeat(r);
    case MessageType::kJobStatusUpdate: return read_job_status(r);
    case MessageType::kLaunchJob: return read_launch(r);
    case MessageType::kSignalJob: return read_signal(r);
    case MessageType::kAck: return read_ack(r);
    case MessageType::kErrorReply: return read_error_reply(r);
    case MessageType::kSubmitRequest: return detail::read_submit_request(r);
    case MessageType::kSubmitReply: return read_submit_reply(r);
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
    case MessageType::kAuthenticatedRequest: return read_authenticated_request(r);
    case MessageType::kHeartbeatReply: return read_heartbeat_reply(r);
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
  std::visit([&](const auto& msg) { encode_payload(pk, msg); }, m);
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
