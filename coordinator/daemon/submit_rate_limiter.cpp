#include "coordinator/daemon/submit_rate_limiter.h"

#include <algorithm>
#include <cmath>

namespace fairway::daemon {

double SubmitRateLimiter::level(const Bucket& b, Time now) const {
  const double elapsed = static_cast<double>(std::max<std::int64_t>(0, (now - b.at).count()));
  return std::min(static_cast<double>(burst_), b.tokens + elapsed * refill_);
}

bool SubmitRateLimiter::try_take(const std::string& user, Time now) {
  auto [it, fresh] = buckets_.try_emplace(user, Bucket{static_cast<double>(burst_), now});
  Bucket& b = it->second;
  if (!fresh) {
    b.tokens = level(b, now);
    b.at = max(b.at, now);
  }
  if (b.tokens < 1.0) return false;
  b.tokens -= 1.0;
  return true;
}

Duration SubmitRateLimiter::wait_for_token(const std::string& user, Time now) const {
  auto it = buckets_.find(user);
  if (it == buckets_.end()) return Duration();
  const double missing = 1.0 - level(it->second, now);
  if (missing <= 0 || refill_ <= 0) return Duration();
  return Duration::seconds(static_cast<std::int64_t>(std::ceil(missing / refill_)));
}

}  // namespace fairway::daemon
