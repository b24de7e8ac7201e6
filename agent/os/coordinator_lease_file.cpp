#include "agent/os/coordinator_lease_file.h"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace fairway::agent {

std::string coordinator_lease_path(const std::string& spool_dir) {
  return spool_dir + "/coordinator-lease";
}

Status CoordinatorLeaseFile::publish(Time deadline) {
  if (deadline.seconds() == published_.seconds()) return ok_status();
  const std::string tmp = path_ + ".tmp";
  const std::string text = std::to_string(deadline.seconds()) + "\n";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return make_error(ErrorCode::kIo, "open " + tmp + ": " + std::strerror(errno));
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const int err = errno;
  ::close(fd);
  if (!written) return make_error(ErrorCode::kIo, "write " + tmp + ": " + std::strerror(err));
  if (::rename(tmp.c_str(), path_.c_str()) != 0) {
    return make_error(ErrorCode::kIo, "rename " + tmp + ": " + std::strerror(errno));
  }
  published_ = deadline;
  return ok_status();
}

}  // namespace fairway::agent
