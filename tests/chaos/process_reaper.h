// Reaping and killing every child of the chaos test: daemons it started and, as a child
// subreaper, job processes orphaned by a killed agent. Reaper is thread-safe.
#pragma once

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace fairway::chaos {

using namespace std::chrono_literals;

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Children of this process: daemons we started, and (as a subreaper) job processes whose
// agent was killed. One thread reaps them all, so no waitpid races with another.
class Reaper {
 public:
  Reaper() : thread_([this] { loop(); }) {}
  ~Reaper() {
    stop_ = true;
    thread_.join();
  }
  bool exited(pid_t pid) {
    std::lock_guard lock(mu_);
    return dead_.contains(pid);
  }

 private:
  void loop() {
    while (!stop_) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid > 0) {
        std::lock_guard lock(mu_);
        dead_.insert(pid);
        continue;
      }
      std::this_thread::sleep_for(20ms);
    }
  }
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::set<pid_t> dead_;
  std::thread thread_;
};

// Our direct children (daemons and adopted orphans), from /proc.
inline std::vector<pid_t> children() {
  std::vector<pid_t> out;
  const pid_t self = getpid();
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    const std::string stat = slurp(e.path().string() + "/stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == self && state != 'Z') out.push_back(std::stoi(name));
  }
  return out;
}

// Kills every descendant we can see (their process groups too), until none is left.
inline void kill_everything() {
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < end) {
    auto kids = children();
    if (kids.empty()) return;
    for (pid_t k : kids) {
      const pid_t pg = getpgid(k);
      if (pg > 0 && pg != getpgrp()) kill(-pg, SIGKILL);
      kill(k, SIGKILL);
    }
    std::this_thread::sleep_for(50ms);
  }
}

}  // namespace fairway::chaos
