// The step stream's framing (step_stream.h), apart from its sockets: pure, so that the
// wire fuzz target feeds it hostile bytes too.
#include "shared/net/step_stream.h"
#include "shared/wire/codec.h"

namespace fairway::net {

Error step_stream_error(const std::string& what) {
  return Error{ErrorCode::kInvalidArgument, "step stream: " + what};
}

std::string step_frame(const wire::StepIo& m) {
  const std::string frame = wire::encode(m);
  const auto n = static_cast<std::uint32_t>(frame.size());
  std::string out;
  out.reserve(frame.size() + 4);
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((n >> shift) & 0xFF));
  out += frame;
  return out;
}

Result<std::optional<wire::StepIo>> StepStreamReader::next() {
  const std::size_t available = buffer_.size() - offset_;
  if (available < 4) return std::optional<wire::StepIo>();
  std::uint32_t n = 0;
  for (int i = 0; i < 4; ++i)
    n = (n << 8) | static_cast<unsigned char>(buffer_[offset_ + static_cast<std::size_t>(i)]);
  if (n == 0 || n > kMaxStepFrameBytes) {
    return std::unexpected(step_stream_error("frame of " + std::to_string(n) + " bytes (at most " +
                                             std::to_string(kMaxStepFrameBytes) + ")"));
  }
  if (available < 4 + std::size_t{n}) return std::optional<wire::StepIo>();
  auto decoded = wire::decode(std::string_view(buffer_).substr(offset_ + 4, n));
  offset_ += 4 + std::size_t{n};
  // Consumed bytes are dropped once they are most of the buffer: appends stay amortized.
  if (offset_ > buffer_.size() / 2) {
    buffer_.erase(0, offset_);
    offset_ = 0;
  }
  if (!decoded) return std::unexpected(step_stream_error(decoded.error().message));
  auto* io = std::get_if<wire::StepIo>(&*decoded);
  if (io == nullptr) {
    return std::unexpected(
        step_stream_error("unexpected " + std::string(wire::to_string(wire::message_type(*decoded)))));
  }
  return std::optional<wire::StepIo>(std::move(*io));
}

}  // namespace fairway::net
