// Who sent a client request, as the kernel (peer credentials of a local ipc:// client) or
// MUNGE (any transport) proves it, never as the request says; and whether that caller is
// an administrator. Used by the coordinator's one event-loop thread; not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/config/config.h"
#include "shared/net/peer_credentials.h"

namespace fairway::daemon {

struct Caller {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::string user;    // the uid's name in the coordinator's user database
  bool admin = false;  // root, or a member of [security] admin_group
};

class ClientAuthenticator {
 public:
  virtual ~ClientAuthenticator() = default;
  // A local client the kernel names.
  virtual Result<Caller> from_kernel(const net::PeerCredentials& peer) = 0;
  // A client that signed `request` with MUNGE.
  virtual Result<Caller> from_munge(std::string_view credential, std::string_view request) = 0;
};

// munged and the system's user and group database (NSS), with a short-lived cache so that
// a burst of requests does not hit LDAP for each.
std::unique_ptr<ClientAuthenticator> make_system_authenticator(const SecurityConfig& security);

}  // namespace fairway::daemon
