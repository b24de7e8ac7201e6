// Where an argv job's program is: the PATH search execvp would make, planned before fork
// because execvp is not async-signal-safe. Stateless; find_program reads the file system.
#pragma once

#include <string>
#include <vector>

#include "shared/base/result.h"

namespace fairway::agent {

// A name with a '/' is taken as a path (relative to `working_dir` unless absolute);
// otherwise the first executable regular file in the job's own PATH (from `envp`, entries
// relative to `working_dir`, an empty entry meaning it) wins. kNotFound names the
// command and the PATH searched.
// Where a job's program may be, without looking: for a name with a '/', that one path
// (`path` empty); otherwise each PATH entry joined with the name, in order, and the PATH
// (`path`). The job's process tries them as the job's user (process_launcher.cpp): root
// must not look in directories the user cannot read, which would tell the user what is
// there.
struct ProgramSearch {
  std::vector<std::string> candidates;
  std::string path;
  bool searched = false;  // false: a name with '/', exec'd as given
};
ProgramSearch program_search(const std::string& program, const std::vector<std::string>& envp,
                             const std::string& working_dir);

Result<std::string> find_program(const std::string& program, const std::vector<std::string>& envp,
                                 const std::string& working_dir);

}  // namespace fairway::agent
