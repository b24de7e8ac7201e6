// Reading a small file whole (a checkpoint, /proc/<pid>/stat) with a size cap, so that a
// corrupt or hostile file cannot make the agent allocate without bound, and replacing one
// atomically. Thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "shared/base/result.h"

namespace fairway::agent {

// kNotFound when the file (or, for /proc, the process) is gone: ENOENT or ESRCH on open
// or read; kInvalidArgument past `max_bytes`; kIo otherwise. Errors name the path.
Result<std::string> read_small_file(const std::string& path, std::size_t max_bytes,
                                    bool follow_symlinks = true);

// Writes `text` to path.tmp (mode 0600, never through a link) and renames it over `path`:
// a reader sees the old file or the new one, never a torn one. No fsync: the agent's
// checkpoints serve a restart of the agent while the machine runs on, whose page cache
// keeps them; a power loss that would lose them ends the jobs as well.
Status replace_small_file(const std::string& path, std::string_view text);

}  // namespace fairway::agent
