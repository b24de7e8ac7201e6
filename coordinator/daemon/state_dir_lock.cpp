#include "coordinator/daemon/state_dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

#include <filesystem>
#include <string_view>
#include <utility>

namespace fairway::daemon {
namespace {

std::string read_holder(int fd) {
  char buf[256] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string text(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text.empty() ? "another fairway-coordinator" : text;
}

}  // namespace

Result<StateDirLock> StateDirLock::acquire(const std::string& state_dir) {
  const std::string path = (std::filesystem::path(state_dir) / "coordinator.lock").string();
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return make_error(ErrorCode::kIo, "cannot open lock file " + path + ": " + std::strerror(errno));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    const std::string holder = read_holder(fd);
    ::close(fd);
    if (err == EWOULDBLOCK) {
      return make_error(ErrorCode::kFailedPrecondition,
                        "state directory " + state_dir + " is in use by " + holder);
    }
    return make_error(ErrorCode::kIo, "cannot lock " + path + ": " + std::strerror(err));
  }
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::string me = "fairway-coordinator pid " + std::to_string(::getpid()) + " on host " + host + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, me.data(), me.size(), 0) < 0) {
    // The lock holds all the same; only the name shown to a refused second is missing.
  }
  return StateDirLock(fd);
}

StateDirLock::StateDirLock(StateDirLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
StateDirLock& StateDirLock::operator=(StateDirLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}
StateDirLock::~StateDirLock() {
  if (fd_ >= 0) ::close(fd_);
}

Status claim_ipc_endpoint(const std::string& endpoint) {
  constexpr std::string_view kScheme = "ipc://";
  if (!endpoint.starts_with(kScheme)) return ok_status();
  const std::string path = endpoint.substr(kScheme.size());
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return ok_status();
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) return ok_status();  // binding will report it
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return ok_status();
  const bool live = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  if (live) {
    return make_error(ErrorCode::kFailedPrecondition,
                      endpoint +
                          " is served by another live process (another coordinator?); "
                          "refusing to take it over");
  }
  std::filesystem::remove(path, ec);  // left by a process that died
  return ok_status();
}

}  // namespace fairway::daemon
