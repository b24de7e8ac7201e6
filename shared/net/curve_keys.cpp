#include "shared/net/curve_keys.h"
#include "shared/base/try.h"

#include <zmq.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace fairway::net {
namespace {

constexpr std::size_t kZ85KeyChars = 40;

Result<std::string> read_key_text(const std::string& path, const char* what) {
  std::ifstream in(path);
  if (!in) return make_error(ErrorCode::kNotFound, what + std::string(" ") + path + ": cannot read it");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (text.size() != kZ85KeyChars) {
    return make_error(ErrorCode::kInvalidArgument,
                      what + std::string(" ") + path + ": expected one Z85 key of " +
                          std::to_string(kZ85KeyChars) + " characters, found " + std::to_string(text.size()));
  }
  unsigned char raw[32];
  if (zmq_z85_decode(raw, text.c_str()) == nullptr) {
    return make_error(ErrorCode::kInvalidArgument, what + std::string(" ") + path + ": not a Z85 key");
  }
  return text;
}

Status write_file(const std::string& path, const std::string& text, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) return make_error(ErrorCode::kIo, "cannot create " + path + ": " + std::strerror(errno));
  const std::string line = text + "\n";
  const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  ::close(fd);
  if (!ok) return make_error(ErrorCode::kIo, "cannot write " + path);
  return ok_status();
}

}  // namespace

Result<CurveKeyPair> generate_curve_keypair() {
  char pub[41], sec[41];
  if (zmq_curve_keypair(pub, sec) != 0) {
    return make_error(ErrorCode::kInternal, std::string("zmq_curve_keypair: ") + zmq_strerror(zmq_errno()) +
                                                " (libzmq built without CURVE?)");
  }
  return CurveKeyPair{pub, sec};
}

Status write_curve_keypair(const std::string& dir, const std::string& name, const CurveKeyPair& keys) {
  FAIRWAY_TRY(write_file(dir + "/" + name + ".key", keys.secret_z85, 0600));
  return write_file(dir + "/" + name + ".pub", keys.public_z85, 0644);
}

Result<CurveKeyPair> read_curve_secret_key(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%03o", static_cast<unsigned>(st.st_mode & 0777));
    return make_error(ErrorCode::kPermissionDenied,
                      "secret key " + path + " is open to group or others (mode " + mode + "): chmod 600 it");
  }
  FAIRWAY_TRY_ASSIGN(secret, read_key_text(path, "secret key"));
  char pub[41];
  if (zmq_curve_public(pub, secret.c_str()) != 0) {
    return make_error(ErrorCode::kInvalidArgument, "secret key " + path + ": cannot derive its public key");
  }
  return CurveKeyPair{pub, secret};
}

Result<std::string> read_curve_public_key(const std::string& path) {
  return read_key_text(path, "public key");
}

}  // namespace fairway::net
