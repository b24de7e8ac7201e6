#include "agent/os/launch_checkpoint.h"

#include "agent/os/small_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <utility>

#include "agent/os/proc_stat.h"
#include "shared/base/try.h"

namespace fairway::agent {
namespace {

constexpr std::string_view kHeader = "fairway-checkpoint 1";
constexpr std::string_view kPrefix = "job-";
constexpr std::string_view kSuffix = ".checkpoint";
constexpr std::string_view kStepHeader = "fairway-step-checkpoint 1";
constexpr std::string_view kStepInfix = ".step-";

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
  const std::string_view digits = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
  auto id = parse_number<std::uint64_t>("job", digits);
  if (!id) return std::nullopt;
  return *id;
}

// The job and step in a file name "job-<id>.step-<n>.checkpoint", or nothing.
std::optional<std::pair<std::uint64_t, std::int32_t>> step_of_file_name(std::string_view name) {
  if (!name.starts_with(kPrefix) || !name.ends_with(kSuffix)) return std::nullopt;
  const std::string_view middle = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
  const std::size_t infix = middle.find(kStepInfix);
  if (infix == std::string_view::npos) return std::nullopt;
  auto job = parse_number<std::uint64_t>("job", middle.substr(0, infix));
  auto step = parse_number<std::int32_t>("step", middle.substr(infix + kStepInfix.size()));
  if (!job || !step) return std::nullopt;
  return std::pair{*job, *step};
}

// A checkpoint file read (never through a link, at most 1 MiB) and parsed; a parse error
// names the file.
template <typename Parse>
auto read_checkpoint_file(const std::string& path, Parse parse) -> decltype(parse(std::string_view())) {
  FAIRWAY_TRY_ASSIGN(text, read_small_file(path, std::size_t{1} << 20, /*follow_symlinks=*/false));
  auto parsed = parse(text);
  if (!parsed) return std::unexpected(parsed.error().with_context(path));
  return parsed;
}

using Fields = std::map<std::string, std::string, std::less<>>;

// "key value" lines under `header`; a key twice is an error.
Result<Fields> parse_fields(std::string_view text, std::string_view header) {
  Fields fields;
  std::size_t begin = 0;
  bool first = true;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    if (first) {
      if (line != header) {
        return invalid_argument("header '" + std::string(line.substr(0, 64)) + "' is not '" +
                                std::string(header) + "'");
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
  return fields;
}

// Only `keys`, and all of them.
Status check_keys(const Fields& fields, std::span<const std::string_view> keys,
                  std::span<const std::string_view> optional) {
  for (const auto& [key, value] : fields) {
    if (std::find(optional.begin(), optional.end(), key) != optional.end()) continue;
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      return invalid_argument("unknown field '" + key + "'");
    }
  }
  for (const std::string_view key : keys) {
    if (!fields.contains(key)) return invalid_argument("missing field '" + std::string(key) + "'");
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

// "attempt N". An agent older than this key refuses a file with it (check_keys): going
// back to such an agent with jobs running loses their checkpoints (docs/security.md).
std::string attempt_line(const JobCheckpoint& c) {
  return c.attempt ? "attempt " + std::to_string(*c.attempt) + "\n" : std::string();
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
  out += warning_line(c) + (c.extern_only ? "extern 1\n" : "") + attempt_line(c);
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
  out += warning_line(c) + (c.extern_only ? "extern 1\n" : "") + attempt_line(c);
  return out;
}

Result<JobCheckpoint> parse_checkpoint(std::string_view text) {
  FAIRWAY_TRY_ASSIGN(fields, parse_fields(text, kHeader));
  static constexpr std::string_view kKeys[] = {"job",        "pid",   "pgid", "start",
                                               "time_limit", "cores", "gpus", "process_start_ticks"};
  static constexpr std::string_view kOptional[] = {"warning", "extern", "attempt"};
  FAIRWAY_TRY(check_keys(fields, kKeys, kOptional));
  JobCheckpoint c;
  if (auto a = fields.find("attempt"); a != fields.end()) {
    FAIRWAY_TRY_ASSIGN(attempt, parse_number<std::int32_t>("attempt", a->second));
    if (attempt < 0) return invalid_argument("field 'attempt': " + std::to_string(attempt) + " is negative");
    c.attempt = attempt;
  }
  auto job = parse_number<std::uint64_t>("job", fields.find("job")->second);
  auto pid = parse_number<std::int64_t>("pid", fields.find("pid")->second);
  auto pgid = parse_number<std::int64_t>("pgid", fields.find("pgid")->second);
  auto start = parse_number<std::int64_t>("start", fields.find("start")->second);
  auto limit = parse_number<std::int64_t>("time_limit", fields.find("time_limit")->second);
  auto ticks = parse_number<std::uint64_t>("process_start_ticks", fields.find("process_start_ticks")->second);
  auto cores = parse_list("cores", fields.find("cores")->second);
  auto gpus = parse_list("gpus", fields.find("gpus")->second);
  for (const Error* e :
       {job ? nullptr : &job.error(), pid ? nullptr : &pid.error(), pgid ? nullptr : &pgid.error(),
        start ? nullptr : &start.error(), limit ? nullptr : &limit.error(), ticks ? nullptr : &ticks.error(),
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
      return invalid_argument("field 'warning': '" + w->second.substr(0, 64) +
                              "' is not SIG SECONDS batch|group");
    }
    c.warn_signal = sig;
    c.warn_before_s = before;
    c.warn_batch_only = std::string_view(to) == "batch";
  }
  return c;
}

std::string format_step_checkpoint(const StepCheckpoint& c) {
  std::string out(kStepHeader);
  out += "\njob " + std::to_string(c.job.value());
  out += "\nstep " + std::to_string(c.step);
  out += "\npid " + std::to_string(c.pid);
  out += "\npgid " + std::to_string(c.pgid);
  out += "\nprocess_start_ticks " + std::to_string(c.process_start_ticks);
  out += "\n";
  return out;
}

Result<StepCheckpoint> parse_step_checkpoint(std::string_view text) {
  FAIRWAY_TRY_ASSIGN(fields, parse_fields(text, kStepHeader));
  static constexpr std::string_view kKeys[] = {"job", "step", "pid", "pgid", "process_start_ticks"};
  FAIRWAY_TRY(check_keys(fields, kKeys, {}));
  StepCheckpoint c;
  FAIRWAY_TRY_ASSIGN(job, parse_number<std::uint64_t>("job", fields.find("job")->second));
  FAIRWAY_TRY_ASSIGN(step, parse_number<std::int32_t>("step", fields.find("step")->second));
  FAIRWAY_TRY_ASSIGN(pid, parse_number<std::int64_t>("pid", fields.find("pid")->second));
  FAIRWAY_TRY_ASSIGN(pgid, parse_number<std::int64_t>("pgid", fields.find("pgid")->second));
  FAIRWAY_TRY_ASSIGN(
      ticks, parse_number<std::uint64_t>("process_start_ticks", fields.find("process_start_ticks")->second));
  // A pid of 0 or below would signal the agent's own group, or every process.
  if (pid <= 0) return invalid_argument("field 'pid': " + std::to_string(pid) + " is not positive");
  if (pgid <= 0) return invalid_argument("field 'pgid': " + std::to_string(pgid) + " is not positive");
  if (step < 0) return invalid_argument("field 'step': " + std::to_string(step) + " is negative");
  c.job = JobId(job);
  c.step = step;
  c.pid = pid;
  c.pgid = pgid;
  c.process_start_ticks = ticks;
  return c;
}

LaunchCheckpoint::LaunchCheckpoint(std::string dir) : dir_(std::move(dir)) {
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
}

std::string LaunchCheckpoint::path_of(JobId job) const {
  return dir_ + "/" + std::string(kPrefix) + std::to_string(job.value()) + std::string(kSuffix);
}

Status LaunchCheckpoint::save(const JobCheckpoint& checkpoint) const {
  return replace_small_file(path_of(checkpoint.job), format_checkpoint(checkpoint));
}

std::string LaunchCheckpoint::path_of_step(JobId job, std::int32_t step) const {
  return dir_ + "/" + std::string(kPrefix) + std::to_string(job.value()) + std::string(kStepInfix) +
         std::to_string(step) + std::string(kSuffix);
}

Status LaunchCheckpoint::save_step(const StepCheckpoint& checkpoint) const {
  return replace_small_file(path_of_step(checkpoint.job, checkpoint.step),
                            format_step_checkpoint(checkpoint));
}

Status LaunchCheckpoint::remove_step(JobId job, std::int32_t step) const {
  const std::string path = path_of_step(job, step);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return io_error("unlink", path, errno);
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
  std::vector<std::pair<std::pair<std::uint64_t, std::int32_t>, std::string>> step_files;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (const auto job = job_of_file_name(name)) files.emplace_back(*job, dir_ + "/" + name);
    if (const auto step = step_of_file_name(name)) step_files.emplace_back(*step, dir_ + "/" + name);
  }
  ::closedir(dir);
  std::sort(files.begin(), files.end());  // stable order for callers and tests
  std::sort(step_files.begin(), step_files.end());
  for (const auto& [id, path] : step_files) {
    auto step = read_checkpoint_file(path, parse_step_checkpoint);
    if (!step) {
      scan.errors.push_back(step.error());
      continue;
    }
    if (std::pair{step->job.value(), step->step} != id) {
      scan.errors.push_back(
          Error{ErrorCode::kInvalidArgument, path + ": its job and step do not match the file name"});
      continue;
    }
    const bool alive = process_is_alive(static_cast<pid_t>(step->pid), step->process_start_ticks);
    (alive ? scan.live_steps : scan.lost_steps).push_back(*step);
  }
  for (const auto& [job, path] : files) {
    auto checkpoint = read_checkpoint_file(path, parse_checkpoint);
    if (!checkpoint) {
      scan.errors.push_back(checkpoint.error());
      continue;
    }
    if (checkpoint->job.value() != job) {
      scan.errors.push_back(Error{ErrorCode::kInvalidArgument,
                                  path + ": field 'job': " + std::to_string(checkpoint->job.value()) +
                                      " does not match the file name"});
      continue;
    }
    const bool alive = process_is_alive(static_cast<pid_t>(checkpoint->pid), checkpoint->process_start_ticks);
    (alive ? scan.live : scan.lost).push_back(std::move(*checkpoint));
  }
  return scan;
}

}  // namespace fairway::agent
