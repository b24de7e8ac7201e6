#include "agent/os/exit_record.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fairway::agent {

std::string exit_record_path(const std::string& spool_dir, JobId job) {
  return spool_dir + "/job-" + std::to_string(job.value()) + ".exit";
}

Result<std::optional<ExitRecord>> read_exit_record(const std::string& spool_dir, JobId job) {
  const std::string path = exit_record_path(spool_dir, job);
  std::ifstream in(path);
  if (!in) return std::optional<ExitRecord>();
  std::string kind, number, mark;
  in >> kind >> number >> mark;
  const bool fenced = mark == "fenced";
  std::int32_t value = -1;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  const bool numeric = ec == std::errc() && ptr == number.data() + number.size() && value >= 0 && value <= 255;
  if (kind == "exited" && numeric) return std::optional(ExitRecord{ProcessExit::exited(value), fenced});
  if (kind == "signalled" && numeric && value > 0) {
    return std::optional(ExitRecord{ProcessExit::signalled(value), fenced});
  }
  return make_error(ErrorCode::kIo, "exit record " + path + " is not 'exited N' or 'signalled N': '" + kind +
                                        " " + number + "'");
}

Status remove_exit_record(const std::string& spool_dir, JobId job) {
  const std::string path = exit_record_path(spool_dir, job);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return make_error(ErrorCode::kIo, "remove " + path + ": " + std::strerror(errno));
  }
  return ok_status();
}

}  // namespace fairway::agent
