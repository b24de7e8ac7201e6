#include "agent/os/job_script.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace fairway::agent {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

std::unexpected<Error> io_error(const std::string& what, const std::string& path, int err) {
  return make_error(ErrorCode::kIo, what + " " + path + ": " + std::strerror(err));
}

}  // namespace

std::vector<std::string> script_interpreter(std::string_view script) {
  if (!script.starts_with("#!")) return {"/bin/sh"};
  std::string_view line = script.substr(
      2, script.find('\n') == std::string_view::npos ? std::string_view::npos : script.find('\n') - 2);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::size_t i = 0;
  while (i < line.size() && is_blank(line[i])) ++i;
  std::size_t j = i;
  while (j < line.size() && !is_blank(line[j])) ++j;
  if (j == i) return {"/bin/sh"};
  std::vector<std::string> out{std::string(line.substr(i, j - i))};
  while (j < line.size() && is_blank(line[j])) ++j;
  std::string_view arg = line.substr(j);
  while (!arg.empty() && is_blank(arg.back())) arg.remove_suffix(1);
  if (!arg.empty()) out.emplace_back(arg);
  return out;
}

std::string job_script_path(std::string_view spool_dir, JobId job) {
  std::string path(spool_dir);
  if (path.empty() || path.back() != '/') path += '/';
  return path + "fairway-job-" + std::to_string(job.value()) + ".sh";
}

Result<std::string> write_job_script(std::string_view spool_dir, JobId job, std::string_view script,
                                     uid_t owner, gid_t group) {
  const std::string path = job_script_path(spool_dir, job);
  // O_EXCL after unlinking: never write through a file or link someone else left there.
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return io_error("unlink", path, errno);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0700);
  if (fd < 0) return io_error("create job script", path, errno);
  auto fail = [&](const char* what) {
    const int err = errno;
    ::close(fd);
    ::unlink(path.c_str());
    return io_error(what, path, err);
  };
  if (::fchmod(fd, 0700) != 0) return fail("chmod");  // the umask may have cut the mode
  if ((owner != ::geteuid() || group != ::getegid()) && ::fchown(fd, owner, group) != 0) {
    return fail("chown job script");
  }
  std::size_t written = 0;
  while (written < script.size()) {
    const ssize_t n = ::write(fd, script.data() + written, script.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("write job script");
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(path.c_str());
    return io_error("close job script", path, err);
  }
  return path;
}

Status remove_job_script(std::string_view spool_dir, JobId job) {
  const std::string path = job_script_path(spool_dir, job);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return io_error("unlink", path, errno);
  return ok_status();
}

}  // namespace fairway::agent
