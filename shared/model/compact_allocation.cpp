// Layout, one group per node or run of nodes, all numbers LEB128 varints:
//   tag = zigzag(node - (previous node + 1)) << 2 | same << 1 | run
//   run:   one more varint, how many further nodes follow, each the previous plus one,
//          holding what this node holds
//   !same: zigzag(memory_mb), then the core list and the GPU list
// where `same` says the node holds exactly what the previous node held. A list is its
// count of ascending runs, then per run zigzag(first - end of the previous run) and its
// length minus one. Only this file reads or writes the bytes.
#include "shared/model/compact_allocation.h"

#include <cassert>
#include <cstddef>

namespace fairway {
namespace {

std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

void put(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

// Reads what put() wrote; the bytes are ours, so a malformed stream is a programming error.
struct Reader {
  const std::vector<std::uint8_t>& in;
  std::size_t at = 0;
  std::uint64_t get() {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      assert(at < in.size() && shift < 64);
      const std::uint8_t b = in[at++];
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
  }
};

void put_list(std::vector<std::uint8_t>& out, const std::vector<std::int32_t>& units) {
  std::size_t runs = 0;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (i == 0 || units[i] != units[i - 1] + 1) ++runs;
  }
  put(out, runs);
  std::int64_t end = 0;
  for (std::size_t i = 0; i < units.size();) {
    std::size_t j = i + 1;
    while (j < units.size() && units[j] == units[j - 1] + 1) ++j;
    put(out, zigzag(units[i] - end));
    put(out, j - i - 1);
    end = static_cast<std::int64_t>(units[j - 1]) + 1;
    i = j;
  }
}

void get_list(Reader& r, std::vector<std::int32_t>& units) {
  units.clear();
  const std::uint64_t runs = r.get();
  std::int64_t end = 0;
  for (std::uint64_t k = 0; k < runs; ++k) {
    const std::int64_t first = end + unzigzag(r.get());
    const std::uint64_t length = r.get() + 1;
    for (std::uint64_t u = 0; u < length; ++u)
      units.push_back(static_cast<std::int32_t>(first + static_cast<std::int64_t>(u)));
    end = first + static_cast<std::int64_t>(length);
  }
}

bool holds_same(const NodeAllocation& a, const NodeAllocation& b) {
  return a.cores == b.cores && a.gpus == b.gpus && a.memory_mb == b.memory_mb;
}

}  // namespace

CompactAllocation::CompactAllocation(const Allocation& a)
    : cores_(a.total_cores()),
      gpus_(a.total_gpus()),
      memory_mb_(a.total_memory_mb()),
      node_count_(static_cast<std::int64_t>(a.nodes.size())) {
  const auto& nodes = a.nodes;
  std::int64_t previous = -1;
  for (std::size_t i = 0; i < nodes.size();) {
    const NodeAllocation& na = nodes[i];
    const bool same = i > 0 && holds_same(na, nodes[i - 1]);
    std::size_t j = i + 1;
    while (j < nodes.size() && nodes[j].node.value() == nodes[j - 1].node.value() + 1 &&
           holds_same(nodes[j], na)) {
      ++j;
    }
    const std::int64_t node = na.node.value();
    put(bytes_, zigzag(node - (previous + 1)) << 2 | (same ? 2u : 0u) | (j > i + 1 ? 1u : 0u));
    if (j > i + 1) put(bytes_, j - i - 1);
    if (!same) {
      put(bytes_, zigzag(na.memory_mb));
      put_list(bytes_, na.cores);
      put_list(bytes_, na.gpus);
    }
    previous = nodes[j - 1].node.value();
    i = j;
  }
  bytes_.shrink_to_fit();
}

bool CompactAllocation::Cursor::next(NodeAllocation& out) {
  if (run_left_ > 0) {
    --run_left_;
    out.node = NodeIndex(out.node.value() + 1);
    return true;
  }
  if (at_ >= bytes_->size()) return false;
  Reader r{*bytes_, at_};
  const std::uint64_t tag = r.get();
  run_left_ = (tag & 1) != 0 ? r.get() : 0;
  const std::int64_t previous = started_ ? static_cast<std::int64_t>(out.node.value()) : -1;
  out.node = NodeIndex(static_cast<NodeIndex::rep_type>(previous + 1 + unzigzag(tag >> 2)));
  if ((tag & 2) == 0) {
    out.memory_mb = unzigzag(r.get());
    get_list(r, out.cores);
    get_list(r, out.gpus);
  }
  at_ = r.at;
  started_ = true;
  return true;
}

Allocation CompactAllocation::expand() const {
  Allocation a;
  a.nodes.reserve(static_cast<std::size_t>(node_count_));
  Cursor c = cursor();
  NodeAllocation na;
  while (c.next(na)) a.nodes.push_back(na);
  assert(static_cast<std::int64_t>(a.nodes.size()) == node_count_);
  return a;
}

}  // namespace fairway
