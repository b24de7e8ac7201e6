// Helpers for the agent OS tests: temporary dirs, waiting for a child, reading files,
// listing our children. Test-only; not thread-safe.
#pragma once

#include <sys/stat.h>
#include <unistd.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "agent/os/child_reaper.h"
#include "agent/os/job_user.h"
#include "agent/os/proc_stat.h"

namespace fairway::agent::testing {

// A fresh directory under /tmp, open to every user (jobs may run as nobody), removed after.
class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/fairway-agent-test-XXXXXX";
    const char* made = ::mkdtemp(pattern);
    EXPECT_NE(made, nullptr);
    path_ = made ? made : "";
    ::chmod(path_.c_str(), 0777);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
}

// Reaps children until `pid` ends, for at most `limit`; nullopt on timeout.
inline std::optional<ProcessExit> wait_for_exit(pid_t pid,
                                                std::chrono::milliseconds limit = std::chrono::seconds(5)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  ChildReaper reaper;
  while (std::chrono::steady_clock::now() < until) {
    auto reaped = reaper.reap();
    EXPECT_TRUE(reaped);
    if (reaped) {
      for (const auto& child : *reaped) {
        if (child.pid == pid) return child.exit;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::nullopt;
}

// Our direct children still present in /proc (running or zombie).
inline std::vector<pid_t> children_of_this_process() {
  std::vector<pid_t> out;
  const std::string self = std::to_string(::getpid());
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = read_text(entry.path().string() + "/stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 1));
    std::string state, ppid;
    fields >> state >> ppid;
    if (ppid == self) out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

// Gone, or a zombie waiting for a parent that is not us.
inline bool process_is_gone(pid_t pid) {
  const auto stat = read_proc_stat(pid);
  return !stat || stat->is_dead();
}

// The user the tests' jobs run as: root itself (root jobs allowed) or the current user.
inline std::string job_user_name() {
  auto me = look_up_current_user();
  EXPECT_TRUE(me);
  return me ? me->name : "";
}

}  // namespace fairway::agent::testing
