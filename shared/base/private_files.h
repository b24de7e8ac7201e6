// Keeping what holds job content (scripts, environments with their tokens, the job store)
// private to the daemon's user: directories made 0700 whatever the umask, and a refusal,
// naming path and mode, of a directory or file that group or others can reach.
#pragma once

#include <string>
#include <string_view>

#include "shared/base/result.h"

namespace fairway {

// Permission bits as chmod takes them: "0755".
std::string mode_text(unsigned mode);

// Creates `path` and any missing parents; each directory it creates is mode `mode`
// whatever the umask (a directory that exists is left as it is). Errors name the path.
Status make_dirs(const std::string& path, unsigned mode);
// make_dirs with 0700.
inline Status make_private_dir(const std::string& path) {
  return make_dirs(path, 0700);
}

// kPermissionDenied when `path` exists and group or others have any permission on it:
// "<what> /x is mode 0755 (open to group or others) ...: chmod 0700 /x". A path that does
// not exist is fine (it will be made private); a symbolic link is judged by its target.
Status check_private(const std::string& path, std::string_view what);

}  // namespace fairway
