#include "shared/config/config_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace fairway {
namespace {

// A config is a few kilobytes; the cap stops a mistaken path such as /dev/zero early.
constexpr std::size_t kMaxConfigBytes = 16u << 20;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

std::unexpected<Error> io_error(const std::string& path, const std::string& what, int err) {
  return make_error(err == ENOENT ? ErrorCode::kNotFound : ErrorCode::kIo,
                    path + ": " + what + ": " + std::strerror(err));
}

}  // namespace

Result<Config> load_config_file(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) return io_error(path, "cannot open config file", errno);
  std::string text;
  char buf[8192];
  while (true) {
    errno = 0;
    std::size_t n = std::fread(buf, 1, sizeof buf, file.get());
    // Reading a directory opens fine and fails here with EISDIR.
    if (n < sizeof buf && std::ferror(file.get())) {
      return io_error(path, "cannot read config file", errno != 0 ? errno : EIO);
    }
    text.append(buf, n);
    if (text.size() > kMaxConfigBytes) {
      return make_error(ErrorCode::kInvalidArgument,
                        path + ": config file larger than " + std::to_string(kMaxConfigBytes >> 20) + " MiB");
    }
    if (n < sizeof buf) break;
  }
  return parse_config(text, path);
}

}  // namespace fairway
