// The coordinator's state directory is private to its user (docs/security.md): it and the
// job store (fairway.db, -wal, -shm) hold every job's script and environment, tokens too.
// Checked at start: a directory or store that group or others can reach is refused.
#pragma once

#include <string>

#include "shared/base/result.h"

namespace fairway::daemon {

// Makes `state_dir` (0700) if missing; then kPermissionDenied, naming the path and its
// mode, when the directory or one of the store's files is open to group or others.
Status prepare_private_state_dir(const std::string& state_dir);

}  // namespace fairway::daemon
