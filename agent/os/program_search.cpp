#include "agent/os/program_search.h"

#include <sys/stat.h>
#include <string_view>

namespace fairway::agent {
namespace {

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111) != 0;
}

std::string env_value(const std::vector<std::string>& envp, std::string_view name) {
  for (const auto& entry : envp) {
    if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 && entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return {};
}

// dir + "/" + name, appended in place (GCC 12's -Wrestrict misreads string assignments
// and operator+ chains once inlined here).
std::string joined(std::string_view dir, std::string_view name) {
  std::string out;
  out.reserve(dir.size() + 1 + name.size());
  out.append(dir).append(1, '/').append(name);
  return out;
}

}  // namespace

ProgramSearch program_search(const std::string& program, const std::vector<std::string>& envp,
                             const std::string& working_dir) {
  ProgramSearch out;
  if (program.find('/') != std::string::npos) {
    out.candidates.push_back(program.front() == '/' ? program : joined(working_dir, program));
    return out;
  }
  out.searched = true;
  out.path = env_value(envp, "PATH");
  std::size_t begin = 0;
  while (begin <= out.path.size()) {
    std::size_t end = out.path.find(':', begin);
    if (end == std::string::npos) end = out.path.size();
    std::string_view entry = std::string_view(out.path).substr(begin, end - begin);
    if (entry.empty()) entry = ".";
    const std::string dir = entry.front() == '/' ? std::string(entry) : joined(working_dir, entry);
    out.candidates.push_back(joined(dir, program));
    begin = end + 1;
  }
  return out;
}

Result<std::string> find_program(const std::string& program, const std::vector<std::string>& envp,
                                 const std::string& working_dir) {
  if (program.find('/') != std::string::npos) {
    return program.front() == '/' ? program : joined(working_dir, program);
  }
  const std::string path = env_value(envp, "PATH");
  std::size_t begin = 0;
  while (begin <= path.size()) {
    std::size_t end = path.find(':', begin);
    if (end == std::string::npos) end = path.size();
    std::string_view entry = std::string_view(path).substr(begin, end - begin);
    if (entry.empty()) entry = ".";
    const std::string dir = entry.front() == '/' ? std::string(entry) : joined(working_dir, entry);
    std::string candidate = joined(dir, program);
    if (is_executable_file(candidate)) return candidate;
    begin = end + 1;
  }
  return make_error(ErrorCode::kNotFound, "command '" + program + "' not found in PATH '" + path + "'");
}

}  // namespace fairway::agent
