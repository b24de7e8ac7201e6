// ClientAuthenticators for synchronous CoordinatorService tests, shared by the lone-coordinator
// fixture and the in-process cluster harness. MUNGE is refused by both.
#pragma once

#include "coordinator/daemon/client_identity.h"

namespace fairway::daemon::test_support {

// Every local caller is root (an admin): for tests of what the service does, not who may ask.
class RootOnlyAuthenticator final : public ClientAuthenticator {
 public:
  Result<Caller> from_kernel(const net::PeerCredentials&) override { return Caller{0, 0, "root", true}; }
  Result<Caller> from_munge(std::string_view, std::string_view) override {
    return make_error(ErrorCode::kPermissionDenied, "no munge here");
  }
};

// Callers as the kernel proves them: uid 0 is root (an admin), any other uid is alice.
class RootOrAlice final : public ClientAuthenticator {
 public:
  Result<Caller> from_kernel(const net::PeerCredentials& p) override {
    if (p.uid == 0) return Caller{0, 0, "root", true};
    return Caller{1001, 100, "alice", false};
  }
  Result<Caller> from_munge(std::string_view, std::string_view) override {
    return make_error(ErrorCode::kPermissionDenied, "no munge here");
  }
};

}  // namespace fairway::daemon::test_support
