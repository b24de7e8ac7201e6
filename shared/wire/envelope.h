// The frame every Fairway message travels in: a msgpack array [magic "FWY", version, type,
// payload map]. Constants and checks only; all functions are pure and thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::wire {

inline constexpr std::string_view kMagic = "FWY";
inline constexpr std::uint32_t kWireVersion = 1;

// Checked before any byte is parsed, so a hostile peer cannot make us allocate for it.
inline constexpr std::size_t kMaxFrameBytes = std::size_t{16} << 20;
// Per-field bounds applied while decoding; generous for real traffic, small enough that a
// single forged length cannot exhaust memory.
inline constexpr std::size_t kMaxStringBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxListEntries = std::size_t{1} << 20;
// Bounds msgpack's object tree (about 24 bytes per object) for any frame that passes.
inline constexpr std::size_t kMaxObjectsPerFrame = std::size_t{2} << 20;
inline constexpr std::size_t kMaxNestingDepth = 16;

// Error when the frame is empty or larger than kMaxFrameBytes.
Status check_frame_size(std::size_t bytes);

// The MessageType for a wire value; 0 and values no message uses are errors.
Result<MessageType> message_type_from_wire(std::uint64_t value);

}  // namespace fairway::wire
