#include "shared/wire/step_exchange.h"

namespace fairway::wire {
namespace {

void put_length(std::string& out, std::size_t n) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((n >> shift) & 0xFF));
}

// The next length-prefixed piece of `bytes` from `at`; an error names `what` when cut short.
Result<std::string_view> take_piece(std::string_view bytes, std::size_t& at, const char* what) {
  if (bytes.size() - at < 4)
    return invalid_argument(std::string("fence data: ") + what + " length cut short at byte " +
                            std::to_string(at));
  std::size_t n = 0;
  for (int i = 0; i < 4; ++i)
    n = (n << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  at += 4;
  if (bytes.size() - at < n) {
    return invalid_argument(std::string("fence data: ") + what + " of " + std::to_string(n) +
                            " bytes at byte " + std::to_string(at) + " runs past the end (" +
                            std::to_string(bytes.size()) + " bytes)");
  }
  std::string_view piece = bytes.substr(at, n);
  at += n;
  return piece;
}

}  // namespace

std::string join_fence_blobs(const std::vector<std::string>& blobs) {
  std::string out;
  for (const std::string& b : blobs) {
    put_length(out, b.size());
    out += b;
  }
  return out;
}

Result<std::vector<std::string>> split_fence_blobs(std::string_view bytes, std::size_t nodes) {
  std::vector<std::string> blobs;
  std::size_t at = 0;
  for (std::size_t i = 0; i < nodes; ++i) {
    auto piece = take_piece(bytes, at, "a node's blob");
    if (!piece) return std::unexpected(piece.error());
    blobs.emplace_back(*piece);
  }
  if (at != bytes.size()) {
    return invalid_argument("fence data: " + std::to_string(bytes.size() - at) +
                            " bytes after the blobs of " + std::to_string(nodes) + " nodes");
  }
  return blobs;
}

std::string encode_fence_pairs(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  for (const auto& [k, v] : pairs) {
    put_length(out, k.size());
    out += k;
    put_length(out, v.size());
    out += v;
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> decode_fence_pairs(std::string_view bytes) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::size_t at = 0;
  while (at < bytes.size()) {
    auto key = take_piece(bytes, at, "a key");
    if (!key) return std::unexpected(key.error());
    auto value = take_piece(bytes, at, "a value");
    if (!value) return std::unexpected(value.error());
    pairs.emplace_back(std::string(*key), std::string(*value));
  }
  return pairs;
}

Result<std::optional<std::string>> FenceGather::add(std::int32_t node, std::int64_t number,
                                                    std::string blob) {
  const std::string which = "fence " + std::to_string(number) + " from node " + std::to_string(node);
  if (node < 0 || static_cast<std::size_t>(node) >= blobs_.size()) {
    return invalid_argument(which + ": the step has nodes 0-" + std::to_string(blobs_.size() - 1));
  }
  if (number != number_) return invalid_argument(which + ": the step is at fence " + std::to_string(number_));
  auto& slot = blobs_[static_cast<std::size_t>(node)];
  if (slot) return invalid_argument(which + ": the node already entered it");
  bytes_ += blob.size() + 4;
  if (bytes_ > kMaxFenceBytes) {
    return make_error(ErrorCode::kResourceExhausted, which + ": the step's tasks published more than " +
                                                         std::to_string(kMaxFenceBytes) +
                                                         " bytes for one fence");
  }
  slot = std::move(blob);
  if (++received_ < blobs_.size()) return std::optional<std::string>();
  std::vector<std::string> all;
  all.reserve(blobs_.size());
  for (auto& b : blobs_) {
    all.push_back(std::move(*b));
    b.reset();
  }
  received_ = 0;
  bytes_ = 0;
  ++number_;
  return std::optional<std::string>(join_fence_blobs(all));
}

}  // namespace fairway::wire
