// How a job's main process ended: an exit code or the signal that killed it, already
// decoded from the wait status (agent/os does the decoding). Plain value, thread-safe.
#pragma once

#include <cstdint>

namespace fairway::agent {

struct ProcessExit {
  enum class Kind : std::uint8_t { kExited, kSignalled };
  Kind kind = Kind::kExited;
  std::int32_t value = 0;  // the exit code (0..255) or the signal number

  static constexpr ProcessExit exited(std::int32_t code) { return {Kind::kExited, code}; }
  static constexpr ProcessExit signalled(std::int32_t signal) { return {Kind::kSignalled, signal}; }

  constexpr bool succeeded() const { return kind == Kind::kExited && value == 0; }
  constexpr bool operator==(const ProcessExit&) const = default;
};

}  // namespace fairway::agent
