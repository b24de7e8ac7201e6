// What fairway-sim tells a person running it: a progress line on a terminal (and none in a
// pipe or with --quiet), and a clear error, not an abort, when the host runs out of memory.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fairway::sim {
namespace {

namespace fs = std::filesystem;

struct SimRun {
  int exit_code = -1;
  std::string output;
};

SimRun shell(const std::string& command) {
  const fs::path out =
      fs::temp_directory_path() / ("fairway-sim-binary-" + std::to_string(::getpid()) + ".out");
  const int status = std::system((command + " > " + out.string() + " 2>&1").c_str());
  SimRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream f(out);
  std::stringstream text;
  text << f.rdbuf();
  r.output = text.str();
  fs::remove(out);
  return r;
}

std::string sim() {
  return FAIRWAY_SIM_BINARY;
}
std::string trace() {
  return std::string(FAIRWAY_SHARED_DIR) + "/traces/HPC2N-2002-2.2-cln.swf.gz";
}
std::string easy() {
  return std::string(FAIRWAY_SOURCE_DIR) + "/examples/sim/easy.toml";
}

TEST(SimBinary, AMachineTooBigForTheHostIsAClearErrorNotAnAbort) {
  if (std::system("command -v prlimit >/dev/null 2>&1") != 0) GTEST_SKIP() << "prlimit (util-linux) missing";
  const fs::path dir = fs::temp_directory_path() / ("fairway-sim-oom-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "big.toml")
      << "[[nodes]]\nnames = \"n[1-100000]\"\nsockets = 8\ncores_per_socket = 128\n";
  std::ofstream(dir / "one.jsonl")
      << R"({"id":1,"submit":0,"user":"ann","cores":2,"time_limit":300,"runtime":100})"
      << "\n";
  const SimRun r = shell("prlimit --as=" + std::to_string(400 << 20) + " " + sim() + " --config " +
                         (dir / "big.toml").string() + " --workload " + (dir / "one.jsonl").string());
  fs::remove_all(dir);
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_NE(r.output.find("fairway-sim: out of memory"), std::string::npos) << r.output;
}

TEST(SimBinary, AProgressLineOnATerminalOnly) {
  const std::string args = " --config " + easy() + " --workload " + trace();
  if (std::system("command -v script >/dev/null 2>&1") == 0) {
    // script(1) gives the replay a terminal, as a person at a shell has.
    const SimRun tty = shell("script -qec '" + sim() + args + "' /dev/null");
    EXPECT_EQ(tty.exit_code, 0) << tty.output;
    EXPECT_NE(tty.output.find("jobs done"), std::string::npos) << tty.output;
    EXPECT_NE(tty.output.find("trace day "), std::string::npos) << tty.output;
    const SimRun quiet = shell("script -qec '" + sim() + args + " --quiet' /dev/null");
    EXPECT_EQ(quiet.output.find("jobs done"), std::string::npos) << quiet.output;
  }
  const SimRun piped = shell(sim() + args);
  EXPECT_EQ(piped.exit_code, 0) << piped.output;
  EXPECT_EQ(piped.output.find("jobs done"), std::string::npos) << "no progress into a pipe or file";
}

}  // namespace
}  // namespace fairway::sim
