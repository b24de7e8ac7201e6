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

// uid 0 root, 1001 alice, 1002 bob, 1003 ops (an admin who is not root); others refused.
class LocalUsers final : public ClientAuthenticator {
 public:
  Result<Caller> from_kernel(const net::PeerCredentials& p) override {
    switch (p.uid) {
      case 0:
        return Caller{0, 0, "root", true};
      case 1001:
        return Caller{1001, 100, "alice", false};
      case 1002:
        return Caller{1002, 100, "bob", false};
      case 1003:
        return Caller{1003, 100, "ops", true};
      default:
        return make_error(ErrorCode::kPermissionDenied, "unknown uid");
    }
  }
  Result<Caller> from_munge(std::string_view, std::string_view) override {
    return make_error(ErrorCode::kPermissionDenied, "no munge here");
  }
};

}  // namespace fairway::daemon::test_support
