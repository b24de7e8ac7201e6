// Reading a small file whole (a checkpoint, /proc/<pid>/stat) with a size cap, so that a
// corrupt or hostile file cannot make the agent allocate without bound. Thread-safe.
#pragma once

#include <cstddef>
#include <string>

#include "shared/base/result.h"

namespace fairway::agent {

// kNotFound when the file (or, for /proc, the process) is gone: ENOENT or ESRCH on open
// or read; kInvalidArgument past `max_bytes`; kIo otherwise. Errors name the path.
Result<std::string> read_small_file(const std::string& path, std::size_t max_bytes,
                                    bool follow_symlinks = true);

}  // namespace fairway::agent
