#include "client/views/slurm/showq_view.h"

#include <gtest/gtest.h>

#include "tests/client/cli_test_views.h"

namespace fairway::cli {
namespace {

wire::JobView maui_job(std::uint64_t id, JobState state, std::int32_t cores, Duration limit,
                       std::int64_t submit) {
  wire::JobView j;
  j.id = JobId(id);
  j.user = "user1";
  j.state = state;
  j.cores = cores;
  j.time_limit = limit;
  j.submit_time = Time::from_seconds(submit);
  return j;
}

// Seed 002's example: one running job on 2 processors with 9:42:28 left, idle jobs in
// priority order, and jobs MAXPS blocks listed apart as Idle.
TEST(Showq, ActiveIdleAndBlockedAsMauiShowsThem) {
  testing::use_utc();
  const std::int64_t now = testing::kEpoch;
  wire::JobQueryReply r;
  r.now = Time::from_seconds(now);
  wire::JobView running = maui_job(899744, JobState::kRunning, 2, Duration::hours(10), now - 3600);
  running.start_time = Time::from_seconds(now - (36000 - 34948));
  running.allocation = {{"n1", {0, 1}, {}}};
  wire::JobView idle_low = maui_job(900992, JobState::kPending, 8, Duration::hours(2), now - 600);
  idle_low.priority = 10;
  wire::JobView idle_high = maui_job(900991, JobState::kPending, 8, Duration::hours(1), now - 700);
  idle_high.priority = 20;
  wire::JobView maxps = maui_job(901069, JobState::kBlocked, 8, Duration::hours(2), now - 60);
  wire::JobView held = maui_job(901070, JobState::kHeld, 8, Duration::minutes(75), now - 30);
  wire::JobView after = maui_job(901071, JobState::kPending, 8, Duration::minutes(80), now - 20);
  after.reasons = {"Dependency"};
  r.jobs = {running, idle_low, idle_high, maxps, held, after};
  wire::NodeView n1;
  n1.name = "n1";
  n1.cores = 28;
  n1.cores_used = 2;
  wire::NodeView n2 = n1;
  n2.name = "n2";
  n2.cores_used = 0;
  const std::string text = render_showq(r, wire::NodeQueryReply{{n1, n2}});
  for (const char* part :
       {"ACTIVE JOBS--------------------\n",
        "899744   user1     Running  2     9:42:28    Tue Nov 14 21:55:48\n",
        "     1 Active Job     2 of 56 Processors Active (3.57%)\n",
        "                       1 of 2 Nodes Active      (50.00%)\n", "IDLE JOBS----------------------\n",
        "2 Idle Jobs\n", "BLOCKED JOBS----------------\n", "901069   user1     Idle      8     2:00:00",
        "901070   user1     Hold      8     1:15:00", "901071   user1     Deferred  8     1:20:00",
        "Total Jobs: 6   Active Jobs: 1   Idle Jobs: 2   Blocked Jobs: 3\n"}) {
    EXPECT_NE(text.find(part), std::string::npos) << "missing " << part << " in\n" << text;
  }
  EXPECT_LT(text.find("900991"), text.find("900992")) << "idle jobs by priority";
}

}  // namespace
}  // namespace fairway::cli
