#include "agent/os/small_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace fairway::agent {
namespace {

Error file_error(const char* op, const std::string& path, int err) {
  // A process that exits while we read its /proc entry makes the read fail with ESRCH.
  const ErrorCode code = err == ENOENT || err == ESRCH ? ErrorCode::kNotFound : ErrorCode::kIo;
  return Error{code, std::string(op) + " " + path + ": " + std::strerror(err)};
}

}  // namespace

Result<std::string> read_small_file(const std::string& path, std::size_t max_bytes,
                                    bool follow_symlinks) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (follow_symlinks ? 0 : O_NOFOLLOW));
  if (fd < 0) return std::unexpected(file_error("open", path, errno));
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return std::unexpected(file_error("read", path, err));
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {
      ::close(fd);
      return make_error(ErrorCode::kInvalidArgument,
                        path + ": larger than " + std::to_string(max_bytes) + " bytes");
    }
  }
  ::close(fd);
  return text;
}

}  // namespace fairway::agent
