// AgentService on the real SystemHost, driven synchronously as the loop drives it (frames
// in, launch completions, reaped children, timers), with real processes and a fake clock:
// a job that overruns its time limit is signalled and reaped for real. Its lifecycle's
// rules are checked on the fake host (agent_service_host_test, agent_service_lifecycle_test).
#include "agent/daemon/agent_service.h"

#include <gtest/gtest.h>
#include <poll.h>

#include <chrono>
#include <thread>

#include "shared/wire/codec.h"
#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

using namespace std::chrono_literals;
using testing::TempDir;

Time T(std::int64_t s) {
  return Time::from_seconds(1'700'000'000 + s);
}

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

}  // namespace
}  // namespace fairway::agent
