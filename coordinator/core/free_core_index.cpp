#include "coordinator/core/free_core_index.h"

#include <cassert>

namespace fairway {

void FreeCoreIndex::init(std::size_t node_count, std::int32_t max_cores) {
  buckets_.assign(static_cast<std::size_t>(max_cores) + 1, {});
  bucket_of_.assign(node_count, -1);
  slot_of_.assign(node_count, kAbsent);
}

bool FreeCoreIndex::contains(NodeIndex node) const {
  return node.value() < bucket_of_.size() && bucket_of_[node.value()] >= 0;
}

void FreeCoreIndex::insert(NodeIndex node, std::int32_t free_cores) {
  assert(!contains(node) && free_cores >= 0 && free_cores <= max_cores());
  auto& bucket = buckets_[static_cast<std::size_t>(free_cores)];
  bucket_of_[node.value()] = free_cores;
  slot_of_[node.value()] = static_cast<std::uint32_t>(bucket.size());
  bucket.push_back(node);
}

void FreeCoreIndex::erase(NodeIndex node) {
  assert(contains(node));
  auto& bucket = buckets_[static_cast<std::size_t>(bucket_of_[node.value()])];
  const std::uint32_t slot = slot_of_[node.value()];
  const NodeIndex moved = bucket.back();
  bucket[slot] = moved;
  slot_of_[moved.value()] = slot;
  bucket.pop_back();
  bucket_of_[node.value()] = -1;
  slot_of_[node.value()] = kAbsent;
}

void FreeCoreIndex::update(NodeIndex node, std::int32_t free_cores) {
  if (!contains(node)) return;
  if (bucket_of_[node.value()] == free_cores) return;
  erase(node);
  insert(node, free_cores);
}

std::int32_t FreeCoreIndex::largest_free() const {
  for (std::int32_t f = max_cores(); f > 0; --f) {
    if (!buckets_[static_cast<std::size_t>(f)].empty()) return f;
  }
  return 0;
}

}  // namespace fairway
