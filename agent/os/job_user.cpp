#include "agent/os/job_user.h"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace fairway::agent {
namespace {

Result<JobUser> from_passwd(const passwd& pw) {
  JobUser user;
  user.name = pw.pw_name;
  user.uid = pw.pw_uid;
  user.gid = pw.pw_gid;
  user.home = pw.pw_dir ? pw.pw_dir : "";
  user.shell = pw.pw_shell ? pw.pw_shell : "";
  int count = 32;
  for (int attempt = 0; attempt < 8; ++attempt) {
    user.groups.resize(static_cast<std::size_t>(count));
    int n = count;
    if (::getgrouplist(pw.pw_name, pw.pw_gid, user.groups.data(), &n) >= 0) {
      user.groups.resize(static_cast<std::size_t>(n));
      return user;
    }
    count = n > count ? n : count * 2;  // n holds the needed size on failure
  }
  return make_error(ErrorCode::kInternal, "user '" + user.name + "': getgrouplist kept growing past " +
                                              std::to_string(count) + " groups");
}

// Runs getpw*_r with a growing buffer; `call` fills pw/found and returns the error code.
template <typename Call>
Result<JobUser> look_up(const std::string& what, Call call) {
  std::vector<char> buffer(4096);
  for (;;) {
    passwd pw{};
    passwd* found = nullptr;
    const int rc = call(&pw, buffer.data(), buffer.size(), &found);
    if (rc == ERANGE && buffer.size() < (1u << 20)) {
      buffer.resize(buffer.size() * 2);
      continue;
    }
    if (rc != 0) {
      return make_error(ErrorCode::kIo, "look up " + what + ": " + std::strerror(rc));
    }
    if (found == nullptr) return make_error(ErrorCode::kNotFound, "unknown user " + what);
    return from_passwd(pw);
  }
}

}  // namespace

Result<JobUser> look_up_job_user(const std::string& name) {
  if (name.empty()) return invalid_argument("user is empty");
  return look_up("'" + name + "'", [&](passwd* pw, char* buf, std::size_t len, passwd** found) {
    return ::getpwnam_r(name.c_str(), pw, buf, len, found);
  });
}

Result<JobUser> look_up_current_user() {
  const uid_t uid = ::geteuid();
  return look_up("uid " + std::to_string(uid), [&](passwd* pw, char* buf, std::size_t len, passwd** found) {
    return ::getpwuid_r(uid, pw, buf, len, found);
  });
}

}  // namespace fairway::agent
