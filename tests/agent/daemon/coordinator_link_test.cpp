// The agent's link to its coordinator on the fake host, with time as a parameter:
// registration and its retries, heartbeats, updates kept until acknowledged, the lease.
#include "agent/daemon/coordinator_link.h"

#include <gtest/gtest.h>

#include "shared/wire/codec.h"
#include "tests/support/fake_agent_host.h"

namespace fairway::agent {
namespace {

using testing::FakeHost;
using testing::Machine;

Time T(std::int64_t s) {
  return Time::from_seconds(1'700'000'000 + s);
}

class CoordinatorLinkTest : public ::testing::Test {
 protected:
  std::vector<wire::Message> frames() {
    std::vector<wire::Message> out;
    for (const std::string& f : link.take_outgoing()) {
      auto m = wire::decode(f);
      EXPECT_TRUE(m);
      if (m) out.push_back(*m);
    }
    return out;
  }
  static wire::AgentRegister hello() {
    wire::AgentRegister r;
    r.node = "n1";
    r.agent_version = "9.9";
    r.topology = NodeTopology::uniform("n1", 1, 2);
    r.enforcement = "affinity only: a test";
    return r;
  }

  std::shared_ptr<Machine> machine = std::make_shared<Machine>();
  FakeHost host{machine};
  CoordinatorLink link{hello(), Duration::seconds(5), Duration::seconds(60), host};
};

TEST_F(CoordinatorLinkTest, RegistersNamingItsJobsAndRetriesUntilAnswered) {
  EXPECT_TRUE(link.register_due(T(0)));
  link.send_register({wire::RunningJob{JobId(4), {1}, {}, T(-5), 400}}, T(0));
  auto sent = frames();
  ASSERT_EQ(sent.size(), 1u);
  const auto* r = std::get_if<wire::AgentRegister>(&sent[0]);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->node, "n1");
  EXPECT_EQ(r->agent_version, "9.9");
  EXPECT_EQ(r->enforcement, "affinity only: a test");
  EXPECT_EQ(r->running, (std::vector<wire::RunningJob>{{JobId(4), {1}, {}, T(-5), 400}}));
  EXPECT_FALSE(link.register_due(T(2)));
  EXPECT_TRUE(link.register_due(T(3)));
  // No heartbeat before the coordinator knows us.
  link.on_timer(T(10));
  EXPECT_TRUE(frames().empty());
  link.on_registered(T(10));
  EXPECT_TRUE(link.registered());
  EXPECT_FALSE(link.register_due(T(20)));
  link.on_unknown();
  EXPECT_TRUE(link.register_due(T(20)));
}

TEST_F(CoordinatorLinkTest, UpdatesWaitForRegistrationAndGoAgainUntilAcknowledged) {
  const std::uint64_t seq = link.report(JobId(7), 2, JobState::kRunning, std::nullopt, std::nullopt, T(1));
  EXPECT_TRUE(frames().empty());  // not registered: it goes with the backlog
  link.on_registered(T(2));
  auto sent = frames();
  ASSERT_EQ(sent.size(), 1u);
  const auto* u = std::get_if<wire::JobStatusUpdate>(&sent[0]);
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->seq, seq);
  EXPECT_EQ(u->node, "n1");
  EXPECT_EQ(u->attempt, 2);
  // A second Ack of the registration sends nothing twice.
  link.on_registered(T(2));
  EXPECT_TRUE(frames().empty());
  // Unacknowledged: sent again with the next heartbeat; acknowledged: never again.
  link.on_timer(T(5));
  sent = frames();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<wire::Heartbeat>(sent[0]));
  EXPECT_EQ(std::get<wire::JobStatusUpdate>(sent[1]).seq, seq);
  link.acknowledge(seq);
  link.on_timer(T(8));
  EXPECT_TRUE(frames().empty());  // nothing owed, and the heartbeat is not due
}

TEST_F(CoordinatorLinkTest, AJobsEndCarriesWhatItsKeeperSawWhenNoCgroupCounted) {
  link.on_registered(T(0));
  JobEnd end;
  end.state = JobState::kFailed;
  end.exit_code = 3;
  end.max_rss_kb = 2048;
  end.cpu_us = 5'000'000;
  (void)link.report_end(JobId(8), 0, end, JobUsage{}, T(1));
  JobUsage counted;
  counted.peak_memory_bytes = 100;
  counted.cpu_time_ms = 7;
  (void)link.report_end(JobId(9), 0, end, counted, T(1));
  auto sent = frames();
  ASSERT_EQ(sent.size(), 2u);
  const auto& kept = std::get<wire::JobStatusUpdate>(sent[0]);
  EXPECT_EQ(kept.state, JobState::kFailed);
  EXPECT_EQ(kept.exit_code, 3);
  EXPECT_EQ(kept.peak_memory_bytes, 2048 * 1024);
  EXPECT_EQ(kept.cpu_time_ms, 5000);
  const auto& cgroup = std::get<wire::JobStatusUpdate>(sent[1]);
  EXPECT_EQ(cgroup.peak_memory_bytes, 100);
  EXPECT_EQ(cgroup.cpu_time_ms, 7);
}

TEST_F(CoordinatorLinkTest, TheLeaseIsMeasuredOnTheMonotonicClockAndPublished) {
  link.set_monotonic(T(100));
  EXPECT_FALSE(link.lease_lapsed());  // never heard: no lease yet
  link.start_lease();
  EXPECT_EQ(machine->lease, T(160));
  link.set_monotonic(T(150));
  link.start_lease();  // a lease once given is not renewed by the timer
  EXPECT_EQ(machine->lease, T(160));
  link.set_monotonic(T(160));
  EXPECT_FALSE(link.lease_lapsed());
  link.set_monotonic(T(161));
  EXPECT_TRUE(link.lease_lapsed());
  link.heard();
  EXPECT_EQ(machine->lease, T(221));
  EXPECT_FALSE(link.lease_lapsed());
}

}  // namespace
}  // namespace fairway::agent
