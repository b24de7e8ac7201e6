// Encoding of Messages into framed msgpack bytes and decoding of untrusted frames back.
// Stateless and thread-safe; decode() never throws and never trusts a length it reads.
#pragma once

#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::wire {

// A complete frame (see envelope.h). Payloads are msgpack maps with string keys, so fields
// can be added later without breaking older readers.
std::string encode(const Message& m);

// Any malformed, truncated, oversized, wrong-version or unknown-type frame is an
// ErrorCode::kInvalidArgument Error whose message starts with "wire: " and names the
// message type and key where known. Unknown keys are ignored.
Result<Message> decode(std::string_view frame);

// As decode, with every string's control characters escaped (escape_control): what the
// CLI's text views print, so another user's job name cannot forge lines or drive the
// terminal. JSON output uses decode's exact strings.
Result<Message> decode_for_terminal(std::string_view frame);

}  // namespace fairway::wire
