#include "shared/wire/codec.h"

#include <array>
#include <cstddef>
#include <utility>
#include <variant>

#include "shared/base/try.h"
#include "shared/wire/client_fields.h"
#include "shared/wire/config_fields.h"
#include "shared/wire/envelope.h"
#include "shared/wire/field_list.h"
#include "shared/wire/job_fields.h"
#include "shared/wire/message_fields.h"
#include "shared/wire/msgpack_io.h"
#include "shared/wire/report_fields.h"
#include "shared/wire/step_fields.h"

// Every message is its field list's map (the *_fields.h headers): one writer and one reader
// serve them all, the reader picked by the frame's type.
namespace fairway::wire {
namespace {

using detail::MapReader;
using ReadPayload = Message (*)(MapReader&);

// Message's alternatives are in MessageType order: the reader of type t is at t - 1.
template <std::size_t... I>
constexpr std::array<ReadPayload, sizeof...(I)> payload_readers(std::index_sequence<I...>) {
  return {+[](MapReader& r) -> Message {
    return detail::read_fields<std::variant_alternative_t<I, Message>>(r);
  }...};
}
constexpr auto kReaders = payload_readers(std::make_index_sequence<std::variant_size_v<Message>>());

Message read_payload(MessageType type, MapReader& r) {
  const auto i = static_cast<std::size_t>(type) - 1;
  if (i >= kReaders.size()) return Ack{};  // unreachable: open_frame() accepts only known types
  return kReaders[i](r);
}

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

std::string encode(const Message& m) {
  msgpack::sbuffer payload;
  detail::Packer pk(payload);
  std::visit([&](const auto& msg) { detail::write_fields(pk, msg); }, m);
  return detail::seal(message_type(m), payload);
}

Result<Message> decode(std::string_view frame) {
  return decode_frame(frame, false);
}

Result<Message> decode_for_terminal(std::string_view frame) {
  return decode_frame(frame, true);
}

}  // namespace fairway::wire
