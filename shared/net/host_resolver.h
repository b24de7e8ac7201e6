// Host names to addresses for the CLI without the name-service switch: numeric addresses,
// then /etc/hosts, then DNS through glibc's own resolver (resolv.conf). The CLI is linked
// statically to start fast, and a static program must not load NSS modules. Pure but for
// the files and the DNS queries it reads; thread-compatible.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <vector>

#include "shared/base/result.h"

namespace fairway::net {

struct ResolvedAddress {
  sockaddr_storage address{};
  socklen_t length = 0;
  int family = AF_UNSPEC;
};

struct ResolverSources {
  std::string hosts_file = "/etc/hosts";
  bool use_dns = true;
  // Tests point DNS at their own server: 127.0.0.1 on this UDP port (0: resolv.conf).
  std::uint16_t dns_port_for_tests = 0;
};

// Addresses of `host` (a name, an IPv4 address or an IPv6 one, bracketed or not) with
// `port`, in the order to try them. Errors name the host and what was asked.
Result<std::vector<ResolvedAddress>> resolve_host(const std::string& host, std::uint16_t port,
                                                  const ResolverSources& sources = {});

}  // namespace fairway::net
