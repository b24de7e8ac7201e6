// getgrouplist, then each gid's name; lookups grow their buffers as NSS asks (LDAP groups
// can be large).
#include "coordinator/daemon/unix_groups.h"

#include <grp.h>

#include <cerrno>

namespace fairway::daemon {

std::vector<std::string> unix_groups(const std::string& user, std::uint32_t primary_gid) {
  std::vector<gid_t> gids;
  int count = 64;
  for (int attempt = 0; attempt < 8; ++attempt) {
    gids.resize(static_cast<std::size_t>(count));
    int n = count;
    if (::getgrouplist(user.c_str(), static_cast<gid_t>(primary_gid), gids.data(), &n) >= 0) {
      gids.resize(static_cast<std::size_t>(n));
      break;
    }
    gids.clear();
    count = n > count ? n : count * 2;
  }
  std::vector<std::string> names;
  std::vector<char> buf(4096);
  for (gid_t gid : gids) {
    group gr{};
    group* found = nullptr;
    int rc = 0;
    while ((rc = ::getgrgid_r(gid, &gr, buf.data(), buf.size(), &found)) == ERANGE &&
           buf.size() < (1u << 20)) {
      buf.resize(buf.size() * 2);
    }
    if (rc == 0 && found != nullptr) names.emplace_back(gr.gr_name);
  }
  return names;
}

}  // namespace fairway::daemon
