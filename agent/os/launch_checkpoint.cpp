#include "agent/os/launch_checkpoint.h"

#include "agent/os/small_file.h"

#include <cstdio>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <optional>
#include <unistd.h>

#include "agent/os/proc_stat.h"
#include "shared/base/try.h"

namespace fairway::agent {
namespace {

constexpr std::string_view kHeader = "fairway-checkpoint 1";
constexpr std::string_view kPrefix = "job-";
constexpr std::string_view kSuffix = ".checkpoint";

std::unexpected<Error> io_error(const std::string& what, const std::string& path, int err) {
  return make_error(ErrorCode::kIo, what + " " + path + ": " + std::strerror(err));
}

template <typename T>
Result<T> parse_number(std::string_view field, std::string_view text) {
  T value{};
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size()) {
    return invalid_argument("field '" + std::string(field) + "': '" + std::string(text) +
                            "' is not a valid number");
  }
  return value;
}

Result<std::vector<std::int32_t>> parse_list(std::string_view field, std::string_view text) {
  std::vector<std::int32_t> out;
  if (text.empty()) return out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find(',', begin);
    if (end == std::string_view::npos) end = text.size();
    FAIRWAY_TRY_ASSIGN(value, parse_number<std::int32_t>(field, text.substr(begin, end - begin)));
    out.push_back(value);
    begin = end + 1;
  }
  return out;
}

std::string list(const std::vector<std::int32_t>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(values[i]);
  }
  return out;
}

// The job id in a file name "job-<id>.checkpoint", or nothing for other files.
std::optional<std::uint64_t> job_of_file_name(std::string_view name) {
  if (!name.starts_with(kPrefix) || !name.ends_with(kSuffix)) return std::nullopt;
  const std::string_view digits =
      name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
  auto id = parse_number<std::uint64_t>("job", digits);
  if (!id) return std::nullopt;
  return *id;
}

Status write_all(int fd, std::string_view text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(ErrorCode::kIo, std::strerror(errno));
    written += static_cast<std::size_t>(n);
  }
  return ok_status();
}

}  // namespace

namespace {

// "warning SIG SECONDS group|batch", only when the job asked for one (older files lack it).
std::string warning_line(const JobCheckpoint& c) {
  if (c.warn_signal == 0) return "";
  return "warning " + std::to_string(c.warn_signal) + " " + std::to_string(c.warn_before_s) + " " +
         (c.warn_batch_only ? "batch" : "group") + "\n";
}

}  // namespace

std::string format_checkpoint_without_process(const JobCheckpoint& c) {
  std::string out(kHeader);
  out += "\njob " + std::to_string(c.job.value());
  out += "\nstart " + std::to_string(c.start.seconds());
  out += "\ntime_limit " + std::to_string(c.time_limit.count());
  out += "\ncores " + list(c.cores);
  out += "\ngpus " + list(c.gpus);
  out += "\nprocess_start_ticks 0\n";
  out += warning_line(c) + (c.extern_only ? "extern 1\n" : "");
  return out;
}

std::string format_checkpoint(const JobCheckpoint& c) {
  std::string out(kHeader);
  out += "\njob " + std::to_string(c.job.value());
  out += "\npid " + std::to_string(c.pid);
  out += "\npgid " + std::to_string(c.pgid);
  out += "\nstart " + std::to_string(c.start.seconds());
  out += "\ntime_limit " + std::to_string(c.time_limit.count());
  out += "\ncores " + list(c.cores);
  out += "\ngpus " + list(c.gpus);
  out += "\nprocess_start_ticks " + std::to_string(c.process_start_ticks);
  out += "\n";
  out += warning_line(c) + (c.extern_only ? "extern 1\n" : "");
  return out;
}

Result<JobCheckpoint> parse_checkpoint(std::string_view text) {
  std::map<std::string, std::string, std::less<>> fields;
  std::size_t begin = 0;
  bool first = true;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    if (first) {
      if (line != kHeader) {
        return invalid_argument("header '" + std::string(line.substr(0, 64)) + "' is not '" +
                                std::string(kHeader) + "'");
      }
      first = false;
      continue;
    }
    if (line.empty()) continue;
    const std::size_t space = line.find(' ');
    const std::string key(line.substr(0, space));
    const std::string value(space == std::string_view::npos ? "" : line.substr(space + 1));
    if (!fields.emplace(key, value).second) {
      return invalid_argument("field '" + key + "' appears twice");
    }
  }
  if (first) return invalid_argument("empty file, no header");
  static constexpr std::string_view kKeys[] = {"job",   "pid",  "pgid", "start", "time_limit",
                                               "cores", "gpus", "process_start_ticks"};
  for (const auto& [key, value] : fields) {
    if (key == "warning" || key == "extern") continue;  // optional
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      return invalid_argument("unknown field '" + key + "'");
    }
  }
  for (const std::string_view key : kKeys) {
    if (!fields.contains(key)) return invalid_argument("missing field '" + std::string(key) + "'");
  }
  JobCheckpoint c;
  auto job = parse_number<std::uint64_t>("job", fields.find("job")->second);
  auto pid = parse_number<std::int64_t>("pid", fields.find("pid")->second);
  auto pgid = parse_number<std::int64_t>("pgid", fields.find("pgid")->second);
  auto start = parse_number<std::int64_t>("start", fields.find("start")->second);
  auto limit = parse_number<std::int64_t>("time_limit", fields.find("time_limit")->second);
  auto ticks = parse_number<std::uint64_t>("process_start_ticks",
                                           fields.find("process_start_ticks")->second);
  auto cores = parse_list("cores", fields.find("cores")->second);
  auto gpus = parse_list("gpus", fields.find("gpus")->second);
  for (const Error* e : {job ? nullptr : &job.error(), pid ? nullptr : &pid.error(),
                         pgid ? nullptr : &pgid.error(), start ? nullptr : &start.error(),
                         limit ? nullptr : &limit.error(), ticks ? nullptr : &ticks.error(),
                         cores ? nullptr : &cores.error(), gpus ? nullptr : &gpus.error()}) {
    if (e != nullptr) return std::unexpected(*e);
  }
  if (*pid <= 0) return invalid_argument("field 'pid': " + std::to_string(*pid) + " is not positive");
  if (*pgid <= 0) {
    return invalid_argument("field 'pgid': " + std::to_string(*pgid) + " is not positive");
  }
  c.job = JobId(*job);
  c.pid = *pid;
  c.pgid = *pgid;
  c.start = Time::from_seconds(*start);
  c.time_limit = Duration::seconds(*limit);
  c.cores = std::move(*cores);
  c.gpus = std::move(*gpus);
  c.process_start_ticks = *ticks;
  c.extern_only = fields.contains("extern");
  if (auto w = fields.find("warning"); w != fields.end()) {
    int sig = 0, before = 0;
    char to[8] = {};
    if (std::sscanf(w->second.c_str(), "%d %d %7s", &sig, &before, to) != 3 || sig < 1 || sig > 64 ||
        before < 0 || (std::string_view(to) != "batch" && std::string_view(to) != "group")) {
      return invalid_argument("field 'warning': '" + w->second.substr(0, 64) + "' is not SIG SECONDS batch|group");
    }
    c.warn_signal = sig;
    c.warn_before_s = before;
    c.warn_batch_only = std::string_view(to) == "batch";
  }
  return c;
}

LaunchCheckpoint::LaunchCheckpoint(std::string dir) : dir_(std::move(dir)) {
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
}

std::string LaunchCheckpoint::path_of(JobId job) const {
  return dir_ + "/" + std::string(kPrefix) + std::to_string(job.value()) + std::string(kSuffix);
}

Status LaunchCheckpoint::save(const JobCheckpoint& checkpoint) const {
  const std::string path = path_of(checkpoint.job);
  const std::string temp = path + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return io_error("create", temp, errno);
  if (auto ok = write_all(fd, format_checkpoint(checkpoint)); !ok) {
    ::close(fd);
    ::unlink(temp.c_str());
    return make_error(ErrorCode::kIo, "write " + temp + ": " + ok.error().message);
  }
  // No fsync: a checkpoint serves an agent that restarts while its jobs live on. Its page
  // cache survives that; a power loss that would lose it ends the jobs as well. The
  // rename still makes a reader see the old file or the new one, never a torn one.
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    return io_error("close", temp, err);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    return io_error("rename to " + path + " from", temp, err);
  }
  return ok_status();
}

Status LaunchCheckpoint::remove(JobId job) const {
  const std::string path = path_of(job);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return io_error("unlink", path, errno);
  return ok_status();
}

CheckpointScan LaunchCheckpoint::load_all() const {
  CheckpointScan scan;
  DIR* dir = ::opendir(dir_.c_str());
  if (dir == nullptr) {
    scan.errors.push_back(Error{ErrorCode::kIo, "open dir " + dir_ + ": " + std::strerror(errno)});
    return scan;
  }
  std::vector<std::pair<std::uint64_t, std::string>> files;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (const auto job = job_of_file_name(name)) files.emplace_back(*job, dir_ + "/" + name);
  }
  ::closedir(dir);
  std::sort(files.begin(), files.end());  // stable order for callers and tests
  for (const auto& [job, path] : files) {
    auto text = read_small_file(path, std::size_t{1} << 20, /*follow_symlinks=*/false);
    if (!text) {
      scan.errors.push_back(text.error());
      continue;
    }
    auto checkpoint = parse_checkpoint(*text);
    if (!checkpoint) {
      scan.errors.push_back(checkpoint.error().with_context(path));
      continue;
    }
    if (checkpoint->job.value() != job) {
      scan.errors.push_back(Error{ErrorCode::kInvalidArgument,
                                  path + ": field 'job': " + std::to_string(checkpoint->job.value()) +
                                      " does not match the file name"});
      continue;
    }
    const bool alive = process_is_alive(static_cast<pid_t>(checkpoint->pid),
                                        checkpoint->process_start_ticks);
    (alive ? scan.live : scan.lost).push_back(std::move(*checkpoint));
  }
  return scan;
}

}  // namespace fairway::agent
