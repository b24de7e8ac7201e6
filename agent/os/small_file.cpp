#include "agent/os/small_file.h"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace fairway::agent {
namespace {

Error file_error(const char* op, const std::string& path, int err) {
  // A process that exits while we read its /proc entry makes the read fail with ESRCH.
  const ErrorCode code = err == ENOENT || err == ESRCH ? ErrorCode::kNotFound : ErrorCode::kIo;
  return Error{code, std::string(op) + " " + path + ": " + std::strerror(err)};
}

}  // namespace

Result<std::string> read_small_file(const std::string& path, std::size_t max_bytes, bool follow_symlinks) {
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

Status replace_small_file(const std::string& path, std::string_view text) {
  const std::string temp = path + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return std::unexpected(file_error("create", temp, errno));
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      return std::unexpected(file_error("write", temp, err));
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    return std::unexpected(file_error("close", temp, err));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    return std::unexpected(file_error(("rename to " + path + " from").c_str(), temp, err));
  }
  return ok_status();
}

}  // namespace fairway::agent
