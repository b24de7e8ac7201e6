#include "shared/net/uid_budget.h"

#include <cassert>

namespace fairway::net {

bool UidBudget::may_connect(std::uint32_t uid) const {
  if (uid == 0) return true;
  const auto it = users_.find(uid);
  return it == users_.end() || it->second.connections < max_connections_;
}

void UidBudget::connected(std::uint32_t uid) {
  ++users_[uid].connections;
}

void UidBudget::disconnected(std::uint32_t uid) {
  auto it = users_.find(uid);
  assert(it != users_.end() && it->second.connections > 0);
  if (it == users_.end()) return;
  --it->second.connections;
  forget_if_idle(uid);
}

std::size_t UidBudget::room(std::uint32_t uid) const {
  if (uid == 0) return kUnlimited;
  const std::size_t used = held(uid);
  return used >= max_bytes_ ? 0 : max_bytes_ - used;
}

void UidBudget::charge(std::uint32_t uid, std::ptrdiff_t bytes) {
  if (bytes == 0) return;
  Use& use = users_[uid];
  if (bytes > 0) {
    use.bytes += static_cast<std::size_t>(bytes);
  } else {
    const auto released = static_cast<std::size_t>(-bytes);
    assert(released <= use.bytes);
    use.bytes -= released <= use.bytes ? released : use.bytes;
  }
  forget_if_idle(uid);
}

std::size_t UidBudget::held(std::uint32_t uid) const {
  const auto it = users_.find(uid);
  return it == users_.end() ? 0 : it->second.bytes;
}

void UidBudget::forget_if_idle(std::uint32_t uid) {
  auto it = users_.find(uid);
  if (it != users_.end() && it->second.connections == 0 && it->second.bytes == 0) users_.erase(it);
}

}  // namespace fairway::net
