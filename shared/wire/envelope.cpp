#include "shared/wire/envelope.h"

#include <string>
#include <type_traits>
#include <variant>

#include "shared/base/try.h"
#include "shared/wire/msgpack_io.h"

namespace fairway::wire {
namespace {

// Walks the frame without building anything, so that declared array and map sizes are
// checked against our bounds before msgpack allocates room for them (it sizes its object
// tree from the declared counts, not from the bytes present).
struct BoundsVisitor : msgpack::null_visitor {
  std::size_t depth = 0;
  std::size_t objects = 0;
  const char* problem = nullptr;

  bool open(std::uint32_t entries, std::size_t objects_per_entry) {
    if (++depth > kMaxNestingDepth) {
      problem = "nested too deeply";
      return false;
    }
    if (entries > kMaxListEntries) {
      problem = "array or map too large";
      return false;
    }
    objects += static_cast<std::size_t>(entries) * objects_per_entry;
    if (objects > kMaxObjectsPerFrame) {
      problem = "too many values";
      return false;
    }
    return true;
  }
  bool start_array(std::uint32_t n) { return open(n, 1); }
  bool start_map(std::uint32_t n) { return open(n, 2); }
  bool end_array() {
    --depth;
    return true;
  }
  bool end_map() {
    --depth;
    return true;
  }
  void parse_error(std::size_t, std::size_t) { problem = "malformed msgpack"; }
  void insufficient_bytes(std::size_t, std::size_t) { problem = "truncated frame"; }
};

std::unexpected<Error> frame_error(std::string what) {
  return invalid_argument("wire: frame: " + what);
}

}  // namespace

std::string_view to_string(MessageType t) {
  switch (t) {
    case MessageType::kAgentRegister:
      return "AgentRegister";
    case MessageType::kHeartbeat:
      return "Heartbeat";
    case MessageType::kJobStatusUpdate:
      return "JobStatusUpdate";
    case MessageType::kLaunchJob:
      return "LaunchJob";
    case MessageType::kSignalJob:
      return "SignalJob";
    case MessageType::kAck:
      return "Ack";
    case MessageType::kErrorReply:
      return "ErrorReply";
    case MessageType::kSubmitRequest:
      return "SubmitRequest";
    case MessageType::kSubmitReply:
      return "SubmitReply";
    case MessageType::kJobQuery:
      return "JobQuery";
    case MessageType::kJobQueryReply:
      return "JobQueryReply";
    case MessageType::kJobControl:
      return "JobControl";
    case MessageType::kJobControlReply:
      return "JobControlReply";
    case MessageType::kNodeQuery:
      return "NodeQuery";
    case MessageType::kNodeQueryReply:
      return "NodeQueryReply";
    case MessageType::kSubmitBatch:
      return "SubmitBatch";
    case MessageType::kSubmitBatchReply:
      return "SubmitBatchReply";
    case MessageType::kNodeControl:
      return "NodeControl";
    case MessageType::kNodeControlReply:
      return "NodeControlReply";
    case MessageType::kAuthenticatedRequest:
      return "AuthenticatedRequest";
    case MessageType::kHeartbeatReply:
      return "HeartbeatReply";
    case MessageType::kMetricsQuery:
      return "MetricsQuery";
    case MessageType::kMetricsReply:
      return "MetricsReply";
    case MessageType::kPartitionQuery:
      return "PartitionQuery";
    case MessageType::kPartitionQueryReply:
      return "PartitionQueryReply";
    case MessageType::kSharesQuery:
      return "SharesQuery";
    case MessageType::kSharesReply:
      return "SharesReply";
    case MessageType::kJobUpdate:
      return "JobUpdate";
    case MessageType::kSetTimeLimit:
      return "SetTimeLimit";
    case MessageType::kSendSignal:
      return "SendSignal";
    case MessageType::kReservationQuery:
      return "ReservationQuery";
    case MessageType::kReservationQueryReply:
      return "ReservationQueryReply";
    case MessageType::kStepRequest:
      return "StepRequest";
    case MessageType::kStepReply:
      return "StepReply";
    case MessageType::kLaunchStep:
      return "LaunchStep";
    case MessageType::kStepIo:
      return "StepIo";
    case MessageType::kConfigQuery:
      return "ConfigQuery";
    case MessageType::kConfigReply:
      return "ConfigReply";
    case MessageType::kStepEnded:
      return "StepEnded";
  }
  return "Unknown";
}

std::string_view to_string(JobAction a) {
  switch (a) {
    case JobAction::kCancel:
      return "cancel";
    case JobAction::kHold:
      return "hold";
    case JobAction::kRelease:
      return "release";
    case JobAction::kRequeue:
      return "requeue";
    case JobAction::kSignal:
      return "signal";
    case JobAction::kEndAllocation:
      return "end allocation";
  }
  return "unknown";
}

// message_type() relies on the variant listing its alternatives in MessageType order.
template <MessageType T, typename M>
constexpr bool kAt = std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(T) - 1, Message>, M>;
static_assert(
    kAt<MessageType::kAgentRegister, AgentRegister> && kAt<MessageType::kHeartbeat, Heartbeat> &&
    kAt<MessageType::kJobStatusUpdate, JobStatusUpdate> && kAt<MessageType::kLaunchJob, LaunchJob> &&
    kAt<MessageType::kSignalJob, SignalJob> && kAt<MessageType::kAck, Ack> &&
    kAt<MessageType::kErrorReply, ErrorReply> && kAt<MessageType::kSubmitRequest, SubmitRequest> &&
    kAt<MessageType::kSubmitReply, SubmitReply> && kAt<MessageType::kJobQuery, JobQuery> &&
    kAt<MessageType::kJobQueryReply, JobQueryReply> && kAt<MessageType::kJobControl, JobControl> &&
    kAt<MessageType::kJobControlReply, JobControlReply> && kAt<MessageType::kNodeQuery, NodeQuery> &&
    kAt<MessageType::kNodeQueryReply, NodeQueryReply> && kAt<MessageType::kSubmitBatch, SubmitBatch> &&
    kAt<MessageType::kSubmitBatchReply, SubmitBatchReply> && kAt<MessageType::kNodeControl, NodeControl> &&
    kAt<MessageType::kNodeControlReply, NodeControlReply> &&
    kAt<MessageType::kAuthenticatedRequest, AuthenticatedRequest> &&
    kAt<MessageType::kHeartbeatReply, HeartbeatReply> && kAt<MessageType::kMetricsQuery, MetricsQuery> &&
    kAt<MessageType::kMetricsReply, MetricsReply> && kAt<MessageType::kPartitionQuery, PartitionQuery> &&
    kAt<MessageType::kPartitionQueryReply, PartitionQueryReply> &&
    kAt<MessageType::kSharesQuery, SharesQuery> && kAt<MessageType::kSharesReply, SharesReply> &&
    kAt<MessageType::kJobUpdate, JobUpdate> && kAt<MessageType::kSetTimeLimit, SetTimeLimit> &&
    kAt<MessageType::kSendSignal, SendSignal> && kAt<MessageType::kReservationQuery, ReservationQuery> &&
    kAt<MessageType::kReservationQueryReply, ReservationQueryReply> &&
    kAt<MessageType::kStepRequest, StepRequest> && kAt<MessageType::kStepReply, StepReply> &&
    kAt<MessageType::kLaunchStep, LaunchStep> && kAt<MessageType::kStepIo, StepIo> &&
    kAt<MessageType::kConfigQuery, ConfigQuery> && kAt<MessageType::kConfigReply, ConfigReply> &&
    kAt<MessageType::kStepEnded, StepEnded>);

MessageType message_type(const Message& m) {
  return static_cast<MessageType>(m.index() + 1);
}

Status check_frame_size(std::size_t bytes) {
  if (bytes == 0) return frame_error("empty");
  if (bytes > kMaxFrameBytes) {
    return frame_error(std::to_string(bytes) + " bytes exceeds the limit of " +
                       std::to_string(kMaxFrameBytes));
  }
  return ok_status();
}

Result<MessageType> message_type_from_wire(std::uint64_t value) {
  if (value == 0 || value > std::variant_size_v<Message>) {
    return frame_error("unknown message type " + std::to_string(value));
  }
  return static_cast<MessageType>(value);
}

namespace detail {

std::string seal(MessageType type, const msgpack::sbuffer& payload) {
  msgpack::sbuffer buf(payload.size() + 16);
  Packer pk(buf);
  pk.pack_array(4);
  put(pk, kMagic);
  pk.pack_uint32(kWireVersion);
  pk.pack_uint16(static_cast<std::uint16_t>(type));
  std::string out(buf.data(), buf.size());
  out.append(payload.data(), payload.size());
  return out;
}

Result<msgpack::object_handle> parse_bounded(std::string_view bytes, std::string_view what) {
  const auto fail = [&](std::string problem) {
    return std::unexpected(invalid_argument(std::string(what) + ": " + problem));
  };
  if (bytes.empty()) return fail("empty");
  if (bytes.size() > kMaxFrameBytes) {
    return fail(std::to_string(bytes.size()) + " bytes exceeds the limit of " +
                std::to_string(kMaxFrameBytes));
  }
  try {
    BoundsVisitor bounds;
    std::size_t off = 0;
    const bool parsed = msgpack::parse(bytes.data(), bytes.size(), off, bounds);
    if (bounds.problem != nullptr) return fail(bounds.problem);
    if (!parsed) return fail("malformed msgpack");
    if (off != bytes.size()) return fail("trailing bytes after the frame");
    off = 0;
    const msgpack::unpack_limit limit(kMaxListEntries, kMaxListEntries, kMaxFrameBytes, kMaxFrameBytes,
                                      kMaxFrameBytes, kMaxNestingDepth + 1);
    return msgpack::unpack(bytes.data(), bytes.size(), off, nullptr, nullptr, limit);
  } catch (const std::exception& e) {
    return fail(std::string("malformed msgpack (") + e.what() + ")");
  } catch (...) {
    return fail("malformed msgpack");
  }
}

Result<OpenFrame> open_frame(std::string_view frame) {
  FAIRWAY_TRY(check_frame_size(frame.size()));
  OpenFrame out;
  FAIRWAY_TRY_ASSIGN(handle, parse_bounded(frame, "wire: frame"));
  out.handle = std::move(handle);
  const msgpack::object& root = out.handle.get();
  if (root.type != msgpack::type::ARRAY || root.via.array.size != 4) {
    return frame_error("expected an array of 4 elements");
  }
  const msgpack::object* parts = root.via.array.ptr;
  if (parts[0].type != msgpack::type::STR ||
      std::string_view(parts[0].via.str.ptr, parts[0].via.str.size) != kMagic) {
    return frame_error("bad magic");
  }
  if (parts[1].type != msgpack::type::POSITIVE_INTEGER) {
    return frame_error("version: expected unsigned integer");
  }
  if (parts[1].via.u64 != kWireVersion) {
    return frame_error("unsupported version " + std::to_string(parts[1].via.u64) + " (this build speaks " +
                       std::to_string(kWireVersion) + ")");
  }
  if (parts[2].type != msgpack::type::POSITIVE_INTEGER) {
    return frame_error("type: expected unsigned integer");
  }
  FAIRWAY_TRY_ASSIGN(type, message_type_from_wire(parts[2].via.u64));
  out.type = type;
  out.payload = &parts[3];
  return out;
}

}  // namespace detail
}  // namespace fairway::wire
