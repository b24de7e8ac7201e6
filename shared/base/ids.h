// Strong identifier types, so a node index can never be passed where a job id is meant.
// Ids are plain values: cheap to copy, hashable, ordered.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>

namespace fairway {

template <typename Tag, typename Rep = std::uint32_t>
class StrongId {
 public:
  using rep_type = Rep;
  constexpr StrongId() = default;
  constexpr explicit StrongId(Rep v) : v_(v) {}
  constexpr Rep value() const { return v_; }
  constexpr auto operator<=>(const StrongId&) const = default;

 private:
  Rep v_{};
};

// Job ids are user-visible and never reused within a cluster's life.
using JobId = StrongId<struct JobIdTag, std::uint64_t>;
// Dense indices into the cluster's tables; valid only within one ClusterState.
using NodeIndex = StrongId<struct NodeIndexTag>;
using UserIndex = StrongId<struct UserIndexTag>;
using AccountIndex = StrongId<struct AccountIndexTag>;
using PartitionIndex = StrongId<struct PartitionIndexTag>;
using QosIndex = StrongId<struct QosIndexTag>;

}  // namespace fairway

template <typename Tag, typename Rep>
struct std::hash<fairway::StrongId<Tag, Rep>> {
  std::size_t operator()(const fairway::StrongId<Tag, Rep>& id) const noexcept {
    return std::hash<Rep>{}(id.value());
  }
};
