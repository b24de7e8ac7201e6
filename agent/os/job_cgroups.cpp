#include "agent/os/job_cgroups.h"

#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "agent/os/small_file.h"
#include "shared/base/try.h"

namespace fairway::agent {
namespace {

constexpr std::size_t kMaxCgroupFile = 64 * 1024;

std::string errno_text(int err) {
  return std::strerror(err);
}

bool is_fs(const std::string& path, long magic) {
  struct statfs st {};
  return ::statfs(path.c_str(), &st) == 0 && static_cast<long>(st.f_type) == magic;
}

Result<std::string> read_text(const std::string& path) {
  FAIRWAY_TRY_ASSIGN(text, read_small_file(path, kMaxCgroupFile));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

Status write_text(const std::string& path, const std::string& value) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return make_error(err == ENOENT ? ErrorCode::kNotFound : ErrorCode::kIo,
                      "cannot open " + path + ": " + errno_text(err));
  }
  const ssize_t n = ::write(fd, value.data(), value.size());
  const int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(value.size())) {
    return make_error(ErrorCode::kIo, "cannot write \"" + value + "\" to " + path + ": " + errno_text(err));
  }
  return ok_status();
}

Status make_dir(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST) return ok_status();
  return make_error(ErrorCode::kIo, "cannot create cgroup " + path + ": " + errno_text(errno));
}

// "name N" from a flat-keyed file (memory.events, memory.oom_control, cpu.stat).
std::optional<std::int64_t> keyed_value(const std::string& text, std::string_view key) {
  std::istringstream in(text);
  std::string k;
  std::int64_t v = 0;
  while (in >> k >> v) {
    if (k == key) return v;
  }
  return std::nullopt;
}

std::optional<std::int64_t> number_in(const std::string& path) {
  auto t = read_text(path);
  if (!t || t->empty()) return std::nullopt;
  try {
    return std::stoll(*t);
  } catch (...) {
    return std::nullopt;
  }
}

// The agent's own cgroup in the v2 hierarchy ("0::/system.slice/fairway-agent.service").
std::string own_v2_path() {
  auto text = read_small_file("/proc/self/cgroup", kMaxCgroupFile);
  if (!text) return "/";
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("0::")) return line.substr(3);
  }
  return "/";
}

bool has_words(const std::string& text, std::initializer_list<std::string_view> words) {
  std::istringstream in(text);
  std::string w;
  std::size_t found = 0;
  std::vector<std::string> all;
  while (in >> w) all.push_back(w);
  for (auto need : words) {
    for (const auto& have : all) {
      if (have == need) {
        ++found;
        break;
      }
    }
  }
  return found == words.size();
}

// Kills what is left in one job cgroup directory and removes it; waits a little for the
// kernel to let killed processes go (rmdir is EBUSY until they are reaped).
Status kill_and_remove(const std::string& dir) {
  if (::access(dir.c_str(), F_OK) != 0) return ok_status();
  for (int attempt = 0; attempt < 50; ++attempt) {
    if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) return ok_status();
    if (errno != EBUSY)
      return make_error(ErrorCode::kIo, "cannot remove cgroup " + dir + ": " + errno_text(errno));
    if (write_text(dir + "/cgroup.kill", "1")) {
      // v2 (5.14+): every process in it, at once.
    } else if (auto procs = read_text(dir + "/cgroup.procs")) {
      std::istringstream in(*procs);
      pid_t pid = 0;
      while (in >> pid) {
        if (pid > 1) ::kill(pid, SIGKILL);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(attempt < 10 ? 2 : 10));
  }
  return make_error(ErrorCode::kIo, "cgroup " + dir + " still holds processes");
}

long sys_bpf(int cmd, union bpf_attr* attr) {
  return ::syscall(__NR_bpf, cmd, attr, sizeof *attr);
}

bpf_insn insn(std::uint8_t code, std::uint8_t dst, std::uint8_t src, std::int16_t off, std::int32_t imm) {
  bpf_insn i{};
  i.code = code;
  i.dst_reg = dst & 0xf;
  i.src_reg = src & 0xf;
  i.off = off;
  i.imm = imm;
  return i;
}

}  // namespace

CgroupAttach::CgroupAttach(CgroupAttach&& o) noexcept
    : kill_plan(std::exchange(o.kill_plan, {})), fds_(std::exchange(o.fds_, {})) {}
CgroupAttach& CgroupAttach::operator=(CgroupAttach&& o) noexcept {
  if (this != &o) {
    for (int fd : fds_) ::close(fd);
    fds_ = std::exchange(o.fds_, {});
    kill_plan = std::exchange(o.kill_plan, {});
  }
  return *this;
}
CgroupAttach::~CgroupAttach() {
  for (int fd : fds_) ::close(fd);
}

Result<int> load_device_deny_program(const std::vector<DeviceNumber>& denied) {
  // ctx: struct bpf_cgroup_dev_ctx { u32 access_type (type | access << 16); u32 major; u32 minor; }
  std::vector<bpf_insn> prog;
  prog.push_back(insn(BPF_LDX | BPF_MEM | BPF_W, 2, 1, 0, 0));       // r2 = access_type
  prog.push_back(insn(BPF_ALU | BPF_AND | BPF_K, 2, 0, 0, 0xffff));  // r2 = device type
  prog.push_back(insn(BPF_LDX | BPF_MEM | BPF_W, 3, 1, 4, 0));       // r3 = major
  prog.push_back(insn(BPF_LDX | BPF_MEM | BPF_W, 4, 1, 8, 0));       // r4 = minor
  for (const DeviceNumber& d : denied) {
    prog.push_back(insn(BPF_JMP | BPF_JNE | BPF_K, 2, 0, 4, BPF_DEVCG_DEV_CHAR));
    prog.push_back(insn(BPF_JMP | BPF_JNE | BPF_K, 3, 0, 3, static_cast<std::int32_t>(d.major)));
    prog.push_back(insn(BPF_JMP | BPF_JNE | BPF_K, 4, 0, 2, static_cast<std::int32_t>(d.minor)));
    prog.push_back(insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0));  // deny
    prog.push_back(insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
  }
  prog.push_back(insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 1));  // allow the rest
  prog.push_back(insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
  static const char kLicense[] = "GPL";
  char log[4096] = {};
  union bpf_attr attr {};
  attr.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
  attr.insns = reinterpret_cast<std::uint64_t>(prog.data());
  attr.insn_cnt = static_cast<std::uint32_t>(prog.size());
  attr.license = reinterpret_cast<std::uint64_t>(kLicense);
  attr.log_buf = reinterpret_cast<std::uint64_t>(log);
  attr.log_size = sizeof log;
  attr.log_level = 1;
  const long fd = sys_bpf(BPF_PROG_LOAD, &attr);
  if (fd < 0) {
    const int err = errno;
    return make_error(ErrorCode::kIo, "cannot load the device-control eBPF program: " + errno_text(err) +
                                          (log[0] != '\0' ? std::string(" (") + log + ")" : ""));
  }
  return static_cast<int>(fd);
}

Status attach_device_program(const std::string& dir, int prog_fd) {
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) return make_error(ErrorCode::kIo, "cannot open cgroup " + dir + ": " + errno_text(errno));
  union bpf_attr attr {};
  attr.target_fd = static_cast<std::uint32_t>(dir_fd);
  attr.attach_bpf_fd = static_cast<std::uint32_t>(prog_fd);
  attr.attach_type = BPF_CGROUP_DEVICE;
  attr.attach_flags = BPF_F_ALLOW_MULTI;  // with whatever systemd attached above us
  const long rc = sys_bpf(BPF_PROG_ATTACH, &attr);
  const int err = errno;
  ::close(dir_fd);
  if (rc != 0) {
    return make_error(ErrorCode::kIo,
                      "cannot attach the device-control program to " + dir + ": " + errno_text(err));
  }
  return ok_status();
}

Result<std::unique_ptr<JobCgroups>> JobCgroups::open(const CgroupOptions& o) {
  std::unique_ptr<JobCgroups> g(new JobCgroups());
  if (o.mode == "off") {
    g->description_ = "affinity only: cgroups are off ([agent] cgroups = \"off\")";
    return g;
  }
  if (o.mode != "auto" && o.mode != "v1" && o.mode != "v2") {
    return invalid_argument("[agent] cgroups: \"" + o.mode + "\" is not one of auto, v2, v1, off");
  }
  std::string why_not_v2;
  if (o.mode != "v1") {
    std::string mount;
    if (is_fs(o.root, CGROUP2_SUPER_MAGIC)) {
      mount = o.root;
    } else if (is_fs(o.root + "/unified", CGROUP2_SUPER_MAGIC)) {
      mount = o.root + "/unified";
    }
    if (mount.empty()) {
      why_not_v2 = "no cgroup2 mount under " + o.root;
    } else {
      const std::string own = own_v2_path();
      // Under systemd (Delegate=yes) the agent's cgroup is its own to divide: it moves into
      // a leaf so that its jobs may sit beside it with controllers enabled.
      const std::string top = own == "/" ? mount : mount + own;
      auto controllers = read_text(top + "/cgroup.controllers");
      std::string base = top;
      if (!controllers || !has_words(*controllers, {"cpuset", "memory"})) {
        why_not_v2 = "the cgroup2 mount at " + top + " offers no cpuset and memory controllers (has: " +
                     (controllers ? *controllers : std::string("?")) + ")";
      } else {
        Status st = ok_status();
        if (own != "/") {
          st = make_dir(base + "/supervisor");
          if (st) st = write_text(base + "/supervisor/cgroup.procs", std::to_string(::getpid()));
        }
        // Each level down to the subtree passes the controllers on to the next.
        std::string_view rest = o.subtree;
        while (st && !rest.empty()) {
          st = write_text(base + "/cgroup.subtree_control", "+cpuset +memory");
          const auto slash = rest.find('/');
          base += "/" + std::string(rest.substr(0, slash));
          rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
          if (st) st = make_dir(base);
        }
        if (st) st = write_text(base + "/cgroup.subtree_control", "+cpuset +memory");
        (void)write_text(base + "/cgroup.subtree_control", "+pids");
        if (st) {
          g->mode_ = CgroupMode::kV2;
          g->bases_ = {{"", base}};
          g->description_ = "cgroup v2 (" + base + ": cpuset memory devices)";
          return g;
        }
        why_not_v2 = st.error().message;
      }
    }
    if (o.mode == "v2")
      return make_error(ErrorCode::kFailedPrecondition, "cgroup v2 is not usable: " + why_not_v2);
  }
  // v1: cpuset and memory are required, devices and cpuacct used when present.
  std::string missing;
  for (const char* ctrl : {"cpuset", "memory", "devices", "cpuacct", "pids", "freezer"}) {
    const std::string hier = o.root + "/" + ctrl;
    const bool required = std::string_view(ctrl) == "cpuset" || std::string_view(ctrl) == "memory";
    if (!is_fs(hier, CGROUP_SUPER_MAGIC)) {
      if (required)
        missing += std::string(missing.empty() ? "" : ", ") + hier + " is not a cgroup v1 hierarchy";
      continue;
    }
    const std::string base = hier + "/" + o.subtree;
    // The subtree may be nested ("fairway/cn01"): each level is made, and a new cpuset
    // level starts empty (no task may join an empty one), so it takes its parent's.
    Status made = ok_status();
    std::string level = hier;
    std::string_view rest = o.subtree;
    while (made && !rest.empty()) {
      const auto slash = rest.find('/');
      const std::string parent = level;
      level += "/" + std::string(rest.substr(0, slash));
      rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
      made = make_dir(level);
      if (made && std::string_view(ctrl) == "cpuset") {
        for (const char* f : {"cpuset.cpus", "cpuset.mems"}) {
          auto mine = read_text(level + "/" + f);
          if (mine && mine->empty()) {
            if (auto from = read_text(parent + "/" + f)) (void)write_text(level + "/" + f, *from);
          }
        }
      }
    }
    if (!made) {
      if (required) missing += std::string(missing.empty() ? "" : ", ") + made.error().message;
      continue;
    }
    if (std::string_view(ctrl) == "memory") {
      g->memsw_ = ::access((base + "/memory.memsw.limit_in_bytes").c_str(), F_OK) == 0;
      (void)write_text(base + "/memory.use_hierarchy", "1");
    }
    g->bases_.emplace_back(ctrl, base);
  }
  if (!missing.empty()) {
    if (o.mode == "v1")
      return make_error(ErrorCode::kFailedPrecondition, "cgroup v1 is not usable: " + missing);
    g->bases_.clear();
    g->description_ = "affinity only: " + (why_not_v2.empty() ? std::string() : why_not_v2 + "; ") + missing;
    return g;
  }
  g->mode_ = CgroupMode::kV1;
  std::string names;
  for (const auto& [ctrl, base] : g->bases_) names += (names.empty() ? "" : " ") + ctrl;
  g->description_ = "cgroup v1 (" + names + ")";
  return g;
}

std::string JobCgroups::job_dir(const std::string& base, JobId job) const {
  return base + "/" + job_cgroup_name(job);
}

Result<CgroupAttach> JobCgroups::prepare(const CgroupLimits& limits) {
  CgroupAttach attach;
  if (mode_ == CgroupMode::kNone) return attach;
  const std::vector<CgroupWrite> writes =
      mode_ == CgroupMode::kV1 ? cgroup_v1_writes(limits) : cgroup_v2_writes(limits);
  const std::string who = "job " + std::to_string(limits.job.value()) + ": ";
  for (const auto& [ctrl, base] : bases_) {
    const std::string dir = job_dir(base, limits.job);
    if (auto st = make_dir(dir); !st) return std::unexpected(st.error().with_context(who));
    for (const CgroupWrite& w : writes) {
      if (w.controller != ctrl) continue;
      if (w.file == "memory.memsw.limit_in_bytes" && !memsw_) continue;
      if (w.file == "pids.max" && mode_ == CgroupMode::kV2 &&
          ::access((dir + "/pids.max").c_str(), F_OK) != 0) {
        continue;  // no pids controller passed down here: the limit is not enforced
      }
      std::string value = w.value;
      if (w.file == "cpuset.mems" && value.empty()) {
        auto mems = read_text(base + "/cpuset.mems");
        if (mems) value = *mems;
      }
      Status st = write_text(dir + "/" + w.file, value);
      // swap.max exists only with swap accounting.
      if (!st && w.file == "memory.swap.max" && st.error().code == ErrorCode::kNotFound) continue;
      if (!st) return std::unexpected(st.error().with_context(who));
    }
    if (mode_ == CgroupMode::kV2 && !limits.denied_devices.empty()) {
      auto prog = load_device_deny_program(limits.denied_devices);
      if (!prog) return std::unexpected(prog.error().with_context(who));
      Status attached = attach_device_program(dir, *prog);
      ::close(*prog);
      if (!attached) return std::unexpected(attached.error().with_context(who));
    }
    const int fd = ::open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
      return make_error(ErrorCode::kIo, who + "cannot open " + dir + "/cgroup.procs: " + errno_text(errno));
    attach.add(fd);
    // Every process of the job is in every hierarchy's cgroup: one list serves; the
    // freezer's when there is one (v1), so that the frozen are the listed.
    if (attach.kill_plan.procs_file.empty() || ctrl == "freezer")
      attach.kill_plan.procs_file = dir + "/cgroup.procs";
    if (mode_ == CgroupMode::kV2) attach.kill_plan.kill_file = dir + "/cgroup.kill";
    if (ctrl == "freezer") attach.kill_plan.freezer_state = dir + "/freezer.state";
  }
  return attach;
}

bool JobCgroups::exists(JobId job) const {
  if (bases_.empty()) return false;
  return ::access(job_dir(bases_.front().second, job).c_str(), F_OK) == 0;
}

JobUsage JobCgroups::usage(JobId job) const {
  JobUsage u;
  for (const auto& [ctrl, base] : bases_) {
    const std::string dir = job_dir(base, job);
    if (mode_ == CgroupMode::kV2) {
      u.peak_memory_bytes = number_in(dir + "/memory.peak");
      if (auto events = read_text(dir + "/memory.events"))
        u.oom_kills = keyed_value(*events, "oom_kill").value_or(0);
      if (auto stat = read_text(dir + "/cpu.stat")) {
        if (auto us = keyed_value(*stat, "usage_usec")) u.cpu_time_ms = *us / 1000;
      }
    } else if (ctrl == "memory") {
      u.peak_memory_bytes = number_in(dir + "/memory.max_usage_in_bytes");
      if (auto oom = read_text(dir + "/memory.oom_control"))
        u.oom_kills = keyed_value(*oom, "oom_kill").value_or(0);
    } else if (ctrl == "cpuacct") {
      if (auto ns = number_in(dir + "/cpuacct.usage")) u.cpu_time_ms = *ns / 1'000'000;
    }
  }
  return u;
}

Status JobCgroups::remove(JobId job) {
  Status result = ok_status();
  for (const auto& [ctrl, base] : bases_) {
    if (auto st = kill_and_remove(job_dir(base, job)); !st && result) result = st;
  }
  return result;
}

void JobCgroups::remove_stale(const std::vector<JobId>& keep) {
  for (const auto& [ctrl, base] : bases_) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(base, ec)) {
      const std::string name = entry.path().filename().string();
      if (!name.starts_with("job_") || !entry.is_directory()) continue;
      bool kept = false;
      for (JobId j : keep) kept = kept || name == job_cgroup_name(j);
      if (!kept) (void)kill_and_remove(entry.path().string());
    }
  }
}

}  // namespace fairway::agent
