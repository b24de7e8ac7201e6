// A private munged for tests: its own key and socket in a directory of the test's, run in
// the foreground as a child and killed with the object. Needs the munge package.
#pragma once

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

namespace fairway::testing {

class MungeDaemon {
 public:
  // Starts munged under `dir` (created; mode 0711 so other users reach the socket, the
  // key inside stays 0400). ok() is false when munged is missing or did not come up.
  explicit MungeDaemon(const std::string& dir) : dir_(dir) {
    std::filesystem::create_directories(dir_);
    ::chmod(dir_.c_str(), 0711);
    const std::string key = dir_ + "/munge.key";
    {
      std::random_device rd;
      std::ofstream out(key, std::ios::binary);
      for (int i = 0; i < 1024; ++i) out.put(static_cast<char>(rd() & 0xff));
    }
    ::chmod(key.c_str(), 0400);
    pid_ = fork();
    if (pid_ == 0) {
      const std::string log = dir_ + "/munged.log";
      freopen(log.c_str(), "w", stdout);
      freopen(log.c_str(), "a", stderr);
      const std::string pid = dir_ + "/munged.pid", seed = dir_ + "/munged.seed", sock = socket();
      // Debian installs it in /usr/sbin, which a CI user's PATH may lack.
      for (const char* bin : {"/usr/sbin/munged", "munged"}) {
        execlp(bin, "munged", "-F", "--force", "-S", sock.c_str(), "--key-file", key.c_str(), "--pid-file",
               pid.c_str(), "--seed-file", seed.c_str(), static_cast<char*>(nullptr));
      }
      _exit(127);
    }
    for (int i = 0; i < 100 && !std::filesystem::exists(socket()); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~MungeDaemon() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  MungeDaemon(const MungeDaemon&) = delete;
  MungeDaemon& operator=(const MungeDaemon&) = delete;

  bool ok() const { return pid_ > 0 && std::filesystem::exists(socket()); }
  std::string socket() const { return dir_ + "/munge.sock"; }

 private:
  std::string dir_;
  pid_t pid_ = -1;
};

}  // namespace fairway::testing
