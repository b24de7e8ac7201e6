// escape_control: one pass over the bytes; C1 controls are recognised only in their UTF-8
// form (0xC2 0x80-0x9F), the form a UTF-8 terminal decodes.
#include "shared/base/terminal_text.h"

namespace fairway {

namespace {

constexpr char kHex[] = "0123456789abcdef";

bool is_c0(unsigned char c) {
  return c < 0x20 || c == 0x7f;
}
bool is_c1_at(std::string_view s, std::size_t i) {
  return static_cast<unsigned char>(s[i]) == 0xc2 && i + 1 < s.size() &&
         static_cast<unsigned char>(s[i + 1]) >= 0x80 && static_cast<unsigned char>(s[i + 1]) <= 0x9f;
}

}  // namespace

bool has_control(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (is_c0(static_cast<unsigned char>(text[i])) || is_c1_at(text, i)) return true;
  }
  return false;
}

std::string escape_control(std::string_view text) {
  if (!has_control(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (is_c1_at(text, i)) {
      const auto code = static_cast<unsigned char>(text[++i]);
      out += "\\u00";
      out += kHex[code >> 4];
      out += kHex[code & 0xf];
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (is_c0(c)) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace fairway
