// See client_tokens.h.
#include "coordinator/daemon/client_tokens.h"

namespace fairway::daemon {

std::string ClientTokens::key(std::string_view user, std::string_view token) {
  std::string k(user);
  k += '\0';
  k += token;
  return k;
}

void ClientTokens::remember(std::string_view user, std::string_view token, JobId id, Time at) {
  if (token.empty()) return;
  std::string k = key(user, token);
  by_token_[k] = Entry{id, at};
  // Rows come back from the store in id order, near enough submit order for expiry.
  order_.emplace_back(at, std::move(k));
}

std::optional<JobId> ClientTokens::find(std::string_view user, std::string_view token, Time now) {
  while (!order_.empty() && order_.front().first + kKept < now) {
    const auto it = by_token_.find(order_.front().second);
    if (it != by_token_.end() && it->second.at == order_.front().first) by_token_.erase(it);
    order_.pop_front();
  }
  if (token.empty()) return std::nullopt;
  const auto it = by_token_.find(key(user, token));
  return it == by_token_.end() ? std::nullopt : std::optional(it->second.job);
}

}  // namespace fairway::daemon
