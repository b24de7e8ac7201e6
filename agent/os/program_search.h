// Where an argv job's program is: the PATH search execvp would make, done before fork
// because execvp is not async-signal-safe. Stateless; reads the file system only.
#pragma once

#include <string>
#include <vector>

#include "shared/base/result.h"

namespace fairway::agent {

// A name with a '/' is taken as a path (relative to `working_dir` unless absolute);
// otherwise the first executable regular file in the job's own PATH (from `envp`, entries
// relative to `working_dir`, an empty entry meaning it) wins. kNotFound names the
// command and the PATH searched.
Result<std::string> find_program(const std::string& program, const std::vector<std::string>& envp,
                                 const std::string& working_dir);

}  // namespace fairway::agent
