// The allgather a step's node relays run through srun for MPI's key exchange (a PMI fence):
// each node hands in its blob for fence N; once every node has, srun hands all of them to each.
// Pure functions and a plain class over bytes; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shared/base/result.h"

namespace fairway::wire {

// All nodes' blobs of one fence together must fit in one step frame (1 MiB) with room to
// spare: a bound on what the tasks of a step may publish between two fences.
inline constexpr std::size_t kMaxFenceBytes = 960 * 1024;

// Blobs in node order, each behind its 4-byte big-endian length.
std::string join_fence_blobs(const std::vector<std::string>& blobs);
// The inverse for a step of `nodes` nodes; an error says what is wrong with the bytes.
Result<std::vector<std::string>> split_fence_blobs(std::string_view bytes, std::size_t nodes);

// Key-value pairs as a blob: each key and value behind its 4-byte big-endian length. Blobs
// of several nodes joined with join_fence_blobs decode node by node.
std::string encode_fence_pairs(const std::vector<std::pair<std::string, std::string>>& pairs);
Result<std::vector<std::pair<std::string, std::string>>> decode_fence_pairs(std::string_view bytes);

// srun's side: gathers the nodes' blobs of the current fence. Fences are numbered from 1 and
// run one at a time, as every task of the step must enter a fence before any leaves it.
class FenceGather {
 public:
  explicit FenceGather(std::size_t nodes) : blobs_(nodes) {}

  // Node `node`'s blob for fence `number`. Once every node gave its own: the joined blobs,
  // and the next fence begins; before that, nullopt. An error (naming node, fence and
  // why) for a node out of range, a fence other than the current one, a node's second
  // blob, or more than kMaxFenceBytes in all: the step's fence cannot complete.
  Result<std::optional<std::string>> add(std::int32_t node, std::int64_t number, std::string blob);

  std::int64_t current() const { return number_; }

 private:
  std::vector<std::optional<std::string>> blobs_;
  std::int64_t number_ = 1;
  std::size_t bytes_ = 0;
  std::size_t received_ = 0;
};

}  // namespace fairway::wire
