#include "agent/os/exit_record.h"

#include <unistd.h>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

namespace fairway::agent {

std::string exit_record_path(const std::string& spool_dir, JobId job) {
  return spool_dir + "/job-" + std::to_string(job.value()) + ".exit";
}

Result<std::optional<ExitRecord>> read_exit_record(const std::string& spool_dir, JobId job) {
  const std::string path = exit_record_path(spool_dir, job);
  std::ifstream in(path);
  if (!in) return std::optional<ExitRecord>();
  std::string kind, number;
  in >> kind >> number;
  std::int32_t value = -1;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  const bool numeric =
      ec == std::errc() && ptr == number.data() + number.size() && value >= 0 && value <= 255;
  ExitRecord record;
  if (kind == "exited" && numeric) {
    record.exit = ProcessExit::exited(value);
  } else if (kind == "signalled" && numeric && value > 0) {
    record.exit = ProcessExit::signalled(value);
  } else {
    return make_error(ErrorCode::kIo, "exit record " + path + " is not 'exited N' or 'signalled N': '" +
                                          kind + " " + number + "'");
  }
  // Then marks: "fenced", and the usage as NAME=N (a mark it does not know is skipped, a
  // bad number drops that figure: the exit status is what must not be lost).
  std::string mark;
  while (in >> mark) {
    if (mark == "fenced") {
      record.fenced = true;
      continue;
    }
    const auto eq = mark.find('=');
    if (eq == std::string::npos) continue;
    std::int64_t n = -1;
    const char* begin = mark.data() + eq + 1;
    const char* end = mark.data() + mark.size();
    const auto [p, e] = std::from_chars(begin, end, n);
    if (e != std::errc() || p != end || n < 0) continue;
    if (mark.compare(0, eq, "rss_kb") == 0) record.max_rss_kb = n;
    if (mark.compare(0, eq, "cpu_us") == 0) record.cpu_us = n;
  }
  return std::optional(record);
}

Status remove_exit_record(const std::string& spool_dir, JobId job) {
  const std::string path = exit_record_path(spool_dir, job);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return make_error(ErrorCode::kIo, "remove " + path + ": " + std::strerror(errno));
  }
  return ok_status();
}

}  // namespace fairway::agent
