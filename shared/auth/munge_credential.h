// MUNGE credentials bound to a request: the caller's uid/gid as munged vouches for them,
// sealed with a SHA-256 digest of the exact request bytes so a captured credential cannot
// carry another request, and refused when replayed or expired (munged's own checks).
// Each call talks to munged over its socket; thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "shared/base/result.h"

namespace fairway::auth {

struct VerifiedCaller {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
};

// `socket`: munged's socket path; empty: libmunge's default (/run/munge/munge.socket.2).
Result<std::string> sign_request(std::string_view request, const std::string& socket);

// The caller that signed `credential` for exactly `request`. Errors name the reason:
// expired, replayed, not for this request, invalid, or munged unreachable.
Result<VerifiedCaller> verify_request(std::string_view credential, std::string_view request,
                                      const std::string& socket);

}  // namespace fairway::auth
