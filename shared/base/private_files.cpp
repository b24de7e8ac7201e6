#include "shared/base/private_files.h"

#include <sys/stat.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace fairway {

std::string mode_text(unsigned mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", mode & 07777U);
  return text;
}

Status make_dirs(const std::string& path, unsigned mode) {
  if (path.empty()) return invalid_argument("directory path is empty");
  // The missing directories, deepest last: each is made and chmod'ed to `mode` (mkdir's
  // mode passes through the umask, which may be 0 or narrower or wider than wanted).
  std::vector<std::string> missing;
  std::string at = path;
  while (!at.empty() && at != "/") {
    struct stat st {};
    if (::stat(at.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) return make_error(ErrorCode::kIo, "'" + at + "' is not a directory");
      break;
    }
    if (errno != ENOENT)
      return make_error(ErrorCode::kIo, "cannot stat '" + at + "': " + std::strerror(errno));
    missing.push_back(at);
    while (at.size() > 1 && at.back() == '/') at.pop_back();
    const auto slash = at.rfind('/');
    if (slash == std::string::npos) break;
    at = slash == 0 ? "/" : at.substr(0, slash);
  }
  for (auto dir = missing.rbegin(); dir != missing.rend(); ++dir) {
    if (::mkdir(dir->c_str(), static_cast<mode_t>(mode)) != 0 && errno != EEXIST) {
      return make_error(ErrorCode::kIo, "cannot create directory '" + *dir + "': " + std::strerror(errno));
    }
    if (::chmod(dir->c_str(), static_cast<mode_t>(mode)) != 0) {
      return make_error(ErrorCode::kIo,
                        "cannot chmod " + mode_text(mode) + " '" + *dir + "': " + std::strerror(errno));
    }
  }
  return ok_status();
}

Status check_private(const std::string& path, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return ok_status();
    return make_error(ErrorCode::kIo,
                      std::string(what) + " '" + path + "': cannot stat: " + std::strerror(errno));
  }
  const unsigned mode = st.st_mode & 07777U;
  if ((mode & 077U) == 0) return ok_status();
  const bool dir = S_ISDIR(st.st_mode);
  return make_error(ErrorCode::kPermissionDenied,
                    std::string(what) + " '" + path + "' is mode " + mode_text(mode) +
                        " (open to group or others); it holds job scripts and environments, which "
                        "only the daemon's user may read: chmod " +
                        (dir ? "0700" : "0600") + " '" + path + "' (and its files), then start again");
}

}  // namespace fairway
