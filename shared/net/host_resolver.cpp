#include "shared/net/host_resolver.h"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netinet/in.h>
#include <resolv.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

namespace fairway::net {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The address as a socket address with `port`, or nothing when it is not numeric.
std::optional<ResolvedAddress> numeric(const std::string& text, std::uint16_t port) {
  ResolvedAddress r;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&r.address);
  if (::inet_pton(AF_INET, text.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    r.length = sizeof(sockaddr_in);
    r.family = AF_INET;
    return r;
  }
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&r.address);
  if (::inet_pton(AF_INET6, text.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    r.length = sizeof(sockaddr_in6);
    r.family = AF_INET6;
    return r;
  }
  return std::nullopt;
}

std::vector<ResolvedAddress> from_hosts_file(const std::string& path, const std::string& name,
                                             std::uint16_t port) {
  std::vector<ResolvedAddress> found;
  std::ifstream in(path);
  std::string line;
  const std::string wanted = lower(name);
  while (std::getline(in, line)) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string address, alias;
    if (!(words >> address)) continue;
    while (words >> alias) {
      if (lower(alias) != wanted) continue;
      if (auto r = numeric(address, port)) found.push_back(*r);
      break;
    }
  }
  return found;
}

void from_dns(const std::string& name, std::uint16_t port, const ResolverSources& sources,
              std::vector<ResolvedAddress>& found) {
  struct __res_state state {};
  if (::res_ninit(&state) != 0) return;
  if (sources.dns_port_for_tests != 0) {
    state.nscount = 1;
    state.nsaddr_list[0].sin_family = AF_INET;
    state.nsaddr_list[0].sin_port = htons(sources.dns_port_for_tests);
    state.nsaddr_list[0].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    state.retry = 1;
  }
  for (int type : {ns_t_a, ns_t_aaaa}) {
    unsigned char answer[4096];
    const int n = ::res_nsearch(&state, name.c_str(), ns_c_in, type, answer, sizeof answer);
    if (n <= 0) continue;
    ns_msg msg;
    if (::ns_initparse(answer, n, &msg) != 0) continue;
    for (int i = 0; i < ns_msg_count(msg, ns_s_an); ++i) {
      ns_rr rr;
      if (::ns_parserr(&msg, ns_s_an, i, &rr) != 0 || ns_rr_type(rr) != type) continue;
      ResolvedAddress r;
      if (type == ns_t_a && ns_rr_rdlen(rr) == 4) {
        auto* v4 = reinterpret_cast<sockaddr_in*>(&r.address);
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        std::memcpy(&v4->sin_addr, ns_rr_rdata(rr), 4);
        r.length = sizeof(sockaddr_in);
        r.family = AF_INET;
      } else if (type == ns_t_aaaa && ns_rr_rdlen(rr) == 16) {
        auto* v6 = reinterpret_cast<sockaddr_in6*>(&r.address);
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        std::memcpy(&v6->sin6_addr, ns_rr_rdata(rr), 16);
        r.length = sizeof(sockaddr_in6);
        r.family = AF_INET6;
      } else {
        continue;
      }
      found.push_back(r);
    }
  }
  ::res_nclose(&state);
}

}  // namespace

Result<std::vector<ResolvedAddress>> resolve_host(const std::string& host_in, std::uint16_t port,
                                                  const ResolverSources& sources) {
  std::string host = host_in;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) return invalid_argument("no host name given");
  if (auto r = numeric(host, port)) return std::vector<ResolvedAddress>{*r};
  // A name: letters, digits, '-', '.', '_' only, so nothing odd reaches a file or a query.
  for (unsigned char c : host) {
    if (!std::isalnum(c) && c != '-' && c != '.' && c != '_') {
      return invalid_argument("host name \"" + host + "\" has a character a host name cannot have");
    }
  }
  auto found = from_hosts_file(sources.hosts_file, host, port);
  if (found.empty() && sources.use_dns) from_dns(host, port, sources, found);
  if (found.empty()) {
    return make_error(ErrorCode::kNotFound, "cannot resolve host \"" + host + "\" (looked in " +
                                                sources.hosts_file + (sources.use_dns ? " and DNS" : "") +
                                                ")");
  }
  return found;
}

}  // namespace fairway::net
