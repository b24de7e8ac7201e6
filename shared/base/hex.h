// Lowercase hexadecimal text of bytes and back: tokens, and store records kept as text.
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fairway {

std::string to_hex(std::string_view bytes);
// nullopt when the text has an odd length or a character that is not 0-9 or a-f.
std::optional<std::string> from_hex(std::string_view text);

}  // namespace fairway
