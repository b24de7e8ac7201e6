// Launches off the agent's loop: a launch stuck in the child (its output is a FIFO nobody
// reads, as a hung NFS open would be) holds one worker and nothing else; the others and
// the caller go on, and the stuck one finishes once its open returns.
#include "agent/os/launch_workers.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

using namespace std::chrono_literals;
using testing::TempDir;

class LaunchWorkersTest : public ::testing::Test {
 protected:
  LaunchRequest request(std::uint64_t job, const std::string& stdout_path = {}) const {
    LaunchRequest r;
    r.job = JobId(job);
    r.user = testing::job_user_name();
    r.account = "physics";
    r.partition = "batch";
    r.name = "test-job";
    r.program.script = "#!/bin/sh\necho hello\n";
    r.program.working_dir = work.path();
    if (!stdout_path.empty()) r.program.stdout_path = stdout_path;
    r.cores = {0};
    r.nodelist = "node01";
    return r;
  }
  // Waits (polling the completion fd as the agent's loop does) for the next completions.
  static std::vector<LaunchWorkers::Done> wait_done(LaunchWorkers& w, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      pollfd p{w.fd(), POLLIN, 0};
      if (::poll(&p, 1, 20) == 1) {
        auto done = w.take_done();
        if (!done.empty()) return done;
      }
    }
    return {};
  }

  TempDir work;
  TempDir spool;
};

TEST_F(LaunchWorkersTest, AStuckLaunchHoldsOneWorkerAndTheOthersGoOn) {
  auto workers = LaunchWorkers::start(ProcessLauncher(LauncherConfig{spool.path(), true}), 2);
  ASSERT_TRUE(workers) << workers.error().message;
  const std::string fifo = work.path() + "/stuck.out";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);

  const auto before = std::chrono::steady_clock::now();
  (*workers)->submit(request(1, fifo), CgroupAttach());
  (*workers)->submit(request(2), CgroupAttach());
  // submit() returned at once: the caller (the agent's loop) never waits on a launch.
  EXPECT_LT(std::chrono::steady_clock::now() - before, 100ms);

  auto done = wait_done(**workers, 5s);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].job, JobId(2));
  ASSERT_TRUE(done[0].result) << done[0].result.error().message;
  EXPECT_EQ(testing::wait_for_exit(done[0].result->pid), ProcessExit::exited(0));
  EXPECT_EQ((*workers)->in_flight(), 1u);  // job 1 still opening its output

  // The open returns once someone reads: the stuck launch completes.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  done = wait_done(**workers, 5s);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].job, JobId(1));
  ASSERT_TRUE(done[0].result) << done[0].result.error().message;
  EXPECT_EQ(testing::wait_for_exit(done[0].result->pid), ProcessExit::exited(0));
  char buf[64] = {};
  ASSERT_EQ(::fcntl(reader, F_SETFL, 0), 0);
  EXPECT_EQ(std::string(buf, static_cast<std::size_t>(::read(reader, buf, sizeof buf))), "hello\n");
  ::close(reader);
  EXPECT_EQ((*workers)->in_flight(), 0u);
}

TEST_F(LaunchWorkersTest, AFailedLaunchComesBackAsItsError) {
  auto workers = LaunchWorkers::start(ProcessLauncher(LauncherConfig{spool.path(), true}), 1);
  ASSERT_TRUE(workers);
  LaunchRequest r = request(3);
  r.program.working_dir = work.path() + "/missing";
  (*workers)->submit(r, CgroupAttach());
  auto done = wait_done(**workers, 5s);
  ASSERT_EQ(done.size(), 1u);
  ASSERT_FALSE(done[0].result);
  EXPECT_NE(done[0].result.error().message.find("missing"), std::string::npos) << done[0].result.error().message;
  EXPECT_TRUE(testing::children_of_this_process().empty());
}

}  // namespace
}  // namespace fairway::agent
