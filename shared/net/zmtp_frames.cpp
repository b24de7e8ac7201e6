#include "shared/net/zmtp_frames.h"

#include <array>
#include <cstring>

namespace fairway::net::zmtp {

std::string greeting() {
  std::array<char, kGreetingSize> g{};
  g[0] = static_cast<char>(0xff);
  g[9] = 0x7f;
  g[10] = 3;
  g[11] = 1;
  std::memcpy(&g[12], "NULL", 4);
  return std::string(g.data(), g.size());
}

std::string check_greeting(std::string_view g) {
  if (g.size() < kGreetingSize) return "a short ZMTP greeting";
  if (static_cast<unsigned char>(g[0]) != 0xff || (static_cast<unsigned char>(g[9]) & 0x01) == 0) {
    return "not a ZMTP greeting";
  }
  if (static_cast<unsigned char>(g[10]) < 3)
    return "ZMTP version " + std::to_string(static_cast<unsigned char>(g[10])) + " (3 needed)";
  // The mechanism is 20 bytes, NUL-padded.
  if (g.substr(12, 4) != "NULL" || g[16] != '\0') return "a security mechanism other than NULL";
  return {};
}

std::string frame_header(std::uint8_t flags, std::size_t size) {
  std::string h;
  if (size <= 255) {
    h.push_back(static_cast<char>(flags));
    h.push_back(static_cast<char>(size));
  } else {
    h.push_back(static_cast<char>(flags | kLong));
    for (int shift = 56; shift >= 0; shift -= 8) {
      h.push_back(static_cast<char>((static_cast<std::uint64_t>(size) >> shift) & 0xff));
    }
  }
  return h;
}

namespace {

std::string command_frame(std::string_view body) {
  return frame_header(kCommand, body.size()) + std::string(body);
}

}  // namespace

std::string ready_frame(std::string_view socket_type) {
  std::string body = "\x05READY";
  constexpr std::string_view key = "Socket-Type";
  body.push_back(static_cast<char>(key.size()));
  body += key;
  for (int shift = 24; shift >= 0; shift -= 8)
    body.push_back(static_cast<char>((socket_type.size() >> shift) & 0xff));
  body += socket_type;
  return command_frame(body);
}

std::string error_frame(std::string_view reason) {
  reason = reason.substr(0, 255);
  std::string body =
      "\x05"
      "ERROR";
  body.push_back(static_cast<char>(reason.size()));
  body += reason;
  return command_frame(body);
}

std::string pong_frame(std::string_view ping_body) {
  // PING is name, a 2-byte TTL, then up to 16 bytes of context that PONG echoes.
  std::string body = "\x04PONG";
  if (ping_body.size() > 7) body += ping_body.substr(7, 16);
  return command_frame(body);
}

std::string_view command_name(std::string_view body) {
  if (body.empty()) return {};
  const std::size_t n = static_cast<unsigned char>(body[0]);
  return body.size() >= 1 + n ? body.substr(1, n) : std::string_view();
}

Result<std::vector<std::pair<std::string, std::string>>> ready_properties(std::string_view body) {
  if (command_name(body) != "READY") return invalid_argument("ZMTP: not a READY command");
  std::vector<std::pair<std::string, std::string>> props;
  std::size_t at = 6;
  while (at < body.size()) {
    const std::size_t name_len = static_cast<unsigned char>(body[at]);
    if (name_len == 0 || at + 1 + name_len + 4 > body.size())
      return invalid_argument("ZMTP: READY property name cut short");
    std::string name(body.substr(at + 1, name_len));
    at += 1 + name_len;
    std::uint64_t value_len = 0;
    for (int i = 0; i < 4; ++i)
      value_len = (value_len << 8) | static_cast<unsigned char>(body[at + static_cast<std::size_t>(i)]);
    at += 4;
    if (value_len > body.size() - at)
      return invalid_argument("ZMTP: READY property \"" + name + "\" value cut short");
    props.emplace_back(std::move(name), std::string(body.substr(at, static_cast<std::size_t>(value_len))));
    at += static_cast<std::size_t>(value_len);
  }
  return props;
}

std::string error_reason(std::string_view body) {
  constexpr std::size_t at = 6;  // after "\x05ERROR"
  if (command_name(body) != "ERROR" || body.size() <= at) return "no reason";
  const std::size_t len = static_cast<unsigned char>(body[at]);
  return body.size() >= at + 1 + len ? std::string(body.substr(at + 1, len)) : std::string("no reason");
}

ParsedFrame parse_frame(std::string_view buffer, std::uint64_t max_body) {
  ParsedFrame p;
  if (buffer.size() < 2) return p;
  p.flags = static_cast<std::uint8_t>(buffer[0]);
  if ((p.flags & ~(kMore | kLong | kCommand)) != 0) {
    p.kind = ParsedFrame::Kind::kBad;
    p.why = "bad ZMTP frame flags " + std::to_string(p.flags);
    return p;
  }
  std::uint64_t size = 0;
  std::size_t header = 2;
  if ((p.flags & kLong) != 0) {
    header = 9;
    if (buffer.size() < header) return p;
    for (std::size_t i = 1; i < 9; ++i) size = (size << 8) | static_cast<unsigned char>(buffer[i]);
  } else {
    size = static_cast<unsigned char>(buffer[1]);
  }
  if (size > max_body) {
    p.kind = ParsedFrame::Kind::kBad;
    p.why = "a ZMTP frame of " + std::to_string(size) + " bytes (at most " + std::to_string(max_body) + ")";
    return p;
  }
  if (buffer.size() - header < size) {
    p.needed = header + static_cast<std::size_t>(size);
    return p;
  }
  p.kind = ParsedFrame::Kind::kFrame;
  p.body = buffer.substr(header, static_cast<std::size_t>(size));
  p.consumed = header + static_cast<std::size_t>(size);
  return p;
}

}  // namespace fairway::net::zmtp
