#include "coordinator/daemon/client_identity.h"

#include <grp.h>
#include <pwd.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "shared/auth/munge_credential.h"
#include "shared/base/try.h"

namespace fairway::daemon {
namespace {

using Clock = std::chrono::steady_clock;
// Long enough to absorb a burst, short enough that a group change shows within a minute.
constexpr auto kCacheTtl = std::chrono::seconds(60);
constexpr std::size_t kCacheMax = 4096;

class SystemAuthenticator final : public ClientAuthenticator {
 public:
  explicit SystemAuthenticator(SecurityConfig security) : security_(std::move(security)) {}

  Result<Caller> from_kernel(const net::PeerCredentials& peer) override { return caller(peer.uid, peer.gid); }

  Result<Caller> from_munge(std::string_view credential, std::string_view request) override {
    FAIRWAY_TRY_ASSIGN(who, auth::verify_request(credential, request, security_.munge_socket));
    return caller(who.uid, who.gid);
  }

 private:
  struct Entry {
    std::string user;
    gid_t primary_gid = 0;
    std::vector<gid_t> groups;  // primary and supplementary
    bool admin = false;
    Clock::time_point at;
  };

  Result<Caller> caller(std::uint32_t uid, std::uint32_t gid) {
    const auto now = Clock::now();
    auto it = cache_.find(uid);
    if (it == cache_.end() || now - it->second.at > kCacheTtl) {
      FAIRWAY_TRY_ASSIGN(entry, look_up(uid));
      if (cache_.size() >= kCacheMax) cache_.clear();
      entry.at = now;
      it = cache_.insert_or_assign(uid, std::move(entry)).first;
    }
    // A job runs with the caller's gid: one the user is not a member of (a setgid program's
    // egid, `sg` with a group password) would give the job that group's files. Root is root.
    const Entry& e = it->second;
    if (uid != 0 && gid != e.primary_gid &&
        std::find(e.groups.begin(), e.groups.end(), gid) == e.groups.end()) {
      std::string groups;
      for (const gid_t g : e.groups) groups += (groups.empty() ? "" : ", ") + std::to_string(g);
      return make_error(ErrorCode::kPermissionDenied,
                        "gid " + std::to_string(gid) + " is not a group of user '" + e.user +
                            "' (its groups: " + groups +
                            "); a job runs with its submitter's effective gid, which must be one of them");
    }
    return Caller{uid, gid, e.user, e.admin};
  }

  Result<Entry> look_up(std::uint32_t uid) const {
    std::vector<char> buf(4096);
    passwd pw{};
    passwd* found = nullptr;
    int rc = 0;
    while ((rc = ::getpwuid_r(uid, &pw, buf.data(), buf.size(), &found)) == ERANGE &&
           buf.size() < (1u << 20)) {
      buf.resize(buf.size() * 2);
    }
    if (rc != 0) {
      return make_error(ErrorCode::kUnavailable,
                        "cannot look up uid " + std::to_string(uid) + ": " + std::strerror(rc));
    }
    if (found == nullptr) {
      return make_error(ErrorCode::kPermissionDenied,
                        "uid " + std::to_string(uid) + " has no account on the coordinator's host");
    }
    Entry e;
    e.user = pw.pw_name;
    e.primary_gid = pw.pw_gid;
    e.groups = group_list(pw.pw_name, pw.pw_gid);
    e.admin = uid == 0 || in_admin_group(e.groups);
    return e;
  }

  // The user's groups, the primary one and the supplementary ones (as initgroups sets them).
  static std::vector<gid_t> group_list(const char* name, gid_t primary) {
    int count = 64;
    std::vector<gid_t> groups;
    for (int attempt = 0; attempt < 8; ++attempt) {
      groups.resize(static_cast<std::size_t>(count));
      int n = count;
      if (::getgrouplist(name, primary, groups.data(), &n) >= 0) {
        groups.resize(static_cast<std::size_t>(n));
        return groups;
      }
      count = n > count ? n : count * 2;
    }
    return {primary};
  }

  bool in_admin_group(const std::vector<gid_t>& groups) const {
    if (security_.admin_group.empty()) return false;
    std::vector<char> buf(4096);
    group gr{};
    group* found = nullptr;
    int rc = 0;
    while ((rc = ::getgrnam_r(security_.admin_group.c_str(), &gr, buf.data(), buf.size(), &found)) ==
               ERANGE &&
           buf.size() < (1u << 20)) {
      buf.resize(buf.size() * 2);
    }
    if (rc != 0 || found == nullptr) return false;
    return std::find(groups.begin(), groups.end(), gr.gr_gid) != groups.end();
  }

  SecurityConfig security_;
  std::unordered_map<std::uint32_t, Entry> cache_;
};

}  // namespace

std::unique_ptr<ClientAuthenticator> make_system_authenticator(const SecurityConfig& security) {
  return std::make_unique<SystemAuthenticator>(security);
}

}  // namespace fairway::daemon
