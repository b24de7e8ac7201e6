// The client tokens of recent submissions: a submit retried with the same token (its reply
// was lost, the coordinator restarted) gets the job its first attempt made, not a second.
// Kept for a day, so the map does not grow with every job ever submitted. Not thread-safe.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "shared/base/ids.h"
#include "shared/base/time.h"

namespace fairway::daemon {

class ClientTokens {
 public:
  // Far longer than any client waits before retrying (the CLI retries for minutes).
  static constexpr Duration kKept = Duration::hours(24);

  // Remembers `token` of `user` for job `id`, submitted at `at`; an empty token: nothing.
  void remember(std::string_view user, std::string_view token, JobId id, Time at);
  // The job of a token remembered within kKept of `now`; forgets the older ones first.
  std::optional<JobId> find(std::string_view user, std::string_view token, Time now);
  std::size_t size() const { return by_token_.size(); }

 private:
  static std::string key(std::string_view user, std::string_view token);

  struct Entry {
    JobId job;
    Time at;  // a token reused later outlives its first entry in order_
  };
  std::unordered_map<std::string, Entry> by_token_;  // "user\0token"
  std::deque<std::pair<Time, std::string>> order_;   // oldest first
};

}  // namespace fairway::daemon
