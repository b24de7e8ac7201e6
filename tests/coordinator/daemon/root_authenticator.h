// A ClientAuthenticator for synchronous CoordinatorService tests: every local caller is
// root (an admin); MUNGE is refused. For tests of what the service does, not who may ask.
#pragma once

#include "coordinator/daemon/client_identity.h"

namespace fairway::daemon::test_support {

class RootOnlyAuthenticator final : public ClientAuthenticator {
 public:
  Result<Caller> from_kernel(const net::PeerCredentials&) override { return Caller{0, 0, "root", true}; }
  Result<Caller> from_munge(std::string_view, std::string_view) override {
    return make_error(ErrorCode::kPermissionDenied, "no munge here");
  }
};

}  // namespace fairway::daemon::test_support
