#include "shared/net/peer_credentials.h"

#include <charconv>
#include <limits>

namespace fairway::net {
namespace {

template <typename T>
std::optional<T> number(std::string_view s) {
  T v{};
  if (s.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<PeerCredentials> parse_ipc_peer_address(std::string_view address) {
  // The last three fields; the host part before them may itself hold colons.
  const auto c3 = address.rfind(':');
  if (c3 == std::string_view::npos || c3 == 0) return std::nullopt;
  const auto c2 = address.rfind(':', c3 - 1);
  if (c2 == std::string_view::npos || c2 == 0) return std::nullopt;
  const auto c1 = address.rfind(':', c2 - 1);
  if (c1 == std::string_view::npos) return std::nullopt;
  const auto uid = number<std::uint32_t>(address.substr(c1 + 1, c2 - c1 - 1));
  const auto gid = number<std::uint32_t>(address.substr(c2 + 1, c3 - c2 - 1));
  const auto pid = number<std::int64_t>(address.substr(c3 + 1));
  if (!uid || !gid || !pid || *pid <= 0) return std::nullopt;
  return PeerCredentials{*uid, *gid, *pid};
}

}  // namespace fairway::net
