// ZMTP 3.1 (rfc.zeromq.org/spec/23, NULL mechanism) as bytes: the greeting, frame headers,
// READY/ERROR/PONG commands, and an incremental frame parser for untrusted input. Pure
// functions, no I/O: shared by the CLI's client and the coordinator's local listener.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shared/base/result.h"

namespace fairway::net::zmtp {

// Frame flags.
constexpr std::uint8_t kMore = 0x01;
constexpr std::uint8_t kLong = 0x02;
constexpr std::uint8_t kCommand = 0x04;

constexpr std::size_t kGreetingSize = 64;

// Our greeting: signature, version 3.1, mechanism NULL (as-server is 0 for NULL).
std::string greeting();
// Empty when `g` (kGreetingSize bytes) is a ZMTP 3.x greeting asking for NULL, else why not.
std::string check_greeting(std::string_view g);

std::string frame_header(std::uint8_t flags, std::size_t size);
// A whole command frame (header included): READY naming our socket type, ERROR with a
// reason (cut to 255 bytes), PONG answering a PING's body.
std::string ready_frame(std::string_view socket_type);
std::string error_frame(std::string_view reason);
std::string pong_frame(std::string_view ping_body);

// A command body's name (its first byte is the name's length); empty if malformed.
std::string_view command_name(std::string_view body);
// A READY command's metadata, in order. Errors name what is malformed.
Result<std::vector<std::pair<std::string, std::string>>> ready_properties(std::string_view body);
// An ERROR command's reason; "no reason" if it has none that parses.
std::string error_reason(std::string_view body);

// One frame taken from the front of a byte buffer.
struct ParsedFrame {
  enum class Kind { kFrame, kNeedMore, kBad } kind = Kind::kNeedMore;
  std::uint8_t flags = 0;
  std::string_view body;     // points into the parsed buffer (kFrame)
  std::size_t consumed = 0;  // bytes of header and body (kFrame)
  std::size_t needed = 0;    // kNeedMore once the header is whole: the frame's whole length
  std::string why;           // kBad: what is wrong
};
// Never reads past `buffer`; a declared size above `max_body` is kBad before any of it
// arrives, so a peer cannot make us buffer more than that.
ParsedFrame parse_frame(std::string_view buffer, std::uint64_t max_body);

}  // namespace fairway::net::zmtp
