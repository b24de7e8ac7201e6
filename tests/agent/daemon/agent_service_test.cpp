// AgentService on its own, driven synchronously as the loop drives it (frames in, launch
// completions, reaped children, timers), with real processes and a fake clock: what it
// reports for launches that end at once, that are cancelled while they are under way, that
// are resent, and that overrun their time limit.
#include "agent/daemon/agent_service.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "shared/wire/codec.h"
#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

using namespace std::chrono_literals;
using testing::TempDir;

Time T(std::int64_t s) { return Time::from_seconds(1'700'000'000 + s); }

class AgentServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DiscoveredNode node;
    node.topology = NodeTopology::uniform("n1", 1, 4);
    node.core_pus = {{0}, {1}, {2}, {3}};
    AgentOptions o;
    o.spool_dir = spool.path();
    o.allow_root_jobs = true;
    o.apply_binding = false;  // a model node: no cgroups, no affinity
    o.kill_grace = Duration::seconds(1);
    auto s = AgentService::start(std::move(node), o, T(0));
    ASSERT_TRUE(s) << s.error().message;
    service = std::move(*s);
    service->set_monotonic(T(0));
    service->on_frame(wire::encode(wire::Ack{0}), T(0));  // registered
    (void)service->take_outgoing();
  }

  wire::LaunchJob launch(std::uint64_t id, const std::string& cmd, std::int64_t limit_s = 600) const {
    wire::LaunchJob l;
    l.job = JobId(id);
    l.user = testing::job_user_name();
    l.account = "physics";
    l.name = "t";
    l.program.argv = {"/bin/sh", "-c", cmd};
    l.program.working_dir = work.path();
    l.program.env = {{"PATH", "/usr/bin:/bin"}};
    l.cores = {0};
    l.time_limit = Duration::seconds(limit_s);
    l.nodelist = {"n1"};
    return l;
  }

  // Waits for the workers to hand launches back; does not take them.
  bool launch_ready(std::chrono::milliseconds limit = 5s) const {
    pollfd p{service->launch_fd(), POLLIN, 0};
    return ::poll(&p, 1, static_cast<int>(limit.count())) == 1;
  }

  // The job states reported so far, in order, for one job.
  std::vector<JobState> reports(std::uint64_t id) {
    for (const std::string& f : service->take_outgoing()) {
      auto m = wire::decode(f);
      if (!m) continue;
      if (auto* u = std::get_if<wire::JobStatusUpdate>(&*m); u && u->job == JobId(id)) {
        seen[id].push_back(u->state);
        if (is_terminal(u->state)) last_final[id] = *u;
      }
    }
    return seen[id];
  }

  // Reaps until the job has a final report or the limit passes.
  bool wait_final(std::uint64_t id, Time now, std::chrono::milliseconds limit = 5s) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      service->on_children(now);
      // As the daemon's loop ticks: a stopped job whose script is gone is reported once
      // the rest of its process group has ended too (what it left gets the kill grace).
      service->on_timer(now);
      auto r = reports(id);
      if (!r.empty() && is_terminal(r.back())) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  TempDir work, spool;
  std::unique_ptr<AgentService> service;
  std::map<std::uint64_t, std::vector<JobState>> seen;
  std::map<std::uint64_t, wire::JobStatusUpdate> last_final;
};

TEST_F(AgentServiceTest, AJobThatEndsBeforeItsLaunchIsHandedBackKeepsItsExitCode) {
  service->on_frame(wire::encode(launch(1, "exit 3")), T(1));
  ASSERT_TRUE(launch_ready());
  // The loop reaps first (a SIGCHLD came before the completion): the keeper's exit has no
  // job yet.
  std::this_thread::sleep_for(200ms);
  service->on_children(T(1));
  EXPECT_TRUE(reports(1).empty());
  service->on_launches_done(T(1));
  EXPECT_EQ(reports(1), (std::vector<JobState>{JobState::kRunning, JobState::kFailed}));
  ASSERT_TRUE(last_final[1].exit_code);
  EXPECT_EQ(*last_final[1].exit_code, 3);
  EXPECT_EQ(service->running(), 0u);
}

TEST_F(AgentServiceTest, ACancelThatComesDuringTheLaunchEndsTheJobOnceItRuns) {
  const std::string fifo = work.path() + "/slow.out";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);
  wire::LaunchJob l = launch(2, "sleep 30");
  l.program.stdout_path = fifo;
  service->on_frame(wire::encode(l), T(1));
  // A resent launch and the cancel arrive while the first launch waits on its output.
  service->on_frame(wire::encode(l), T(2));
  service->on_frame(wire::encode(wire::SignalJob{JobId(2), SIGTERM, Duration::seconds(1)}), T(2));
  EXPECT_FALSE(launch_ready(200ms));
  EXPECT_TRUE(reports(2).empty());
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  ASSERT_TRUE(launch_ready());
  service->on_launches_done(T(3));
  ASSERT_TRUE(wait_final(2, T(3)));
  ::close(reader);
  const auto r = reports(2);
  ASSERT_EQ(r.size(), 2u);  // one launch: the resend started nothing
  EXPECT_EQ(r[0], JobState::kRunning);
  EXPECT_TRUE(is_terminal(r[1]));
  ASSERT_TRUE(last_final[2].signal);
  EXPECT_EQ(*last_final[2].signal, SIGTERM);
}

TEST_F(AgentServiceTest, AJobPastItsLimitOnTheLoopsClockEndsAsTimeout) {
  service->on_frame(wire::encode(launch(3, "sleep 30", 10)), T(1));
  ASSERT_TRUE(launch_ready());
  service->on_launches_done(T(1));
  EXPECT_EQ(reports(3), (std::vector<JobState>{JobState::kRunning}));
  service->on_timer(T(5));
  EXPECT_EQ(service->running(), 1u);
  service->on_timer(T(12));  // past its 10 s: TERM, then KILL after the grace
  ASSERT_TRUE(wait_final(3, T(12)));
  EXPECT_EQ(reports(3).back(), JobState::kTimeout);
}

TEST_F(AgentServiceTest, ALaunchTheNodeCannotCarryOutIsReportedWithItsReason) {
  wire::LaunchJob l = launch(4, "true");
  l.program.working_dir = work.path() + "/gone";
  service->on_frame(wire::encode(l), T(1));
  ASSERT_TRUE(launch_ready());
  service->on_launches_done(T(1));
  EXPECT_EQ(reports(4), (std::vector<JobState>{JobState::kFailed}));
  EXPECT_NE(last_final[4].reason.find("launch failed on node n1"), std::string::npos) << last_final[4].reason;
  EXPECT_NE(last_final[4].reason.find("gone"), std::string::npos) << last_final[4].reason;
  // Its cores are free again: the same cores take the next job.
  service->on_frame(wire::encode(launch(5, "true")), T(2));
  ASSERT_TRUE(launch_ready());
  service->on_launches_done(T(2));
  EXPECT_EQ(reports(5).front(), JobState::kRunning);
}

TEST_F(AgentServiceTest, AJobThatEndedWellAsTheFenceCameIsReportedCompletedNotLost) {
  service->on_frame(wire::encode(launch(6, "true")), T(1));
  ASSERT_TRUE(launch_ready());
  service->on_launches_done(T(1));
  EXPECT_EQ(reports(6), (std::vector<JobState>{JobState::kRunning}));
  std::this_thread::sleep_for(200ms);  // it has ended; not reaped yet
  // The coordinator has been silent past the lease: the agent fences its jobs.
  service->set_monotonic(T(1000));
  service->on_timer(T(1000));
  ASSERT_TRUE(wait_final(6, T(1000)));
  // Its run ended with exit code 0: done, so the coordinator must not run it again.
  EXPECT_EQ(reports(6).back(), JobState::kCompleted);
}

}  // namespace
}  // namespace fairway::agent
