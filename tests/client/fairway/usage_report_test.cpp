#include "client/fairway/usage_report.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/client/cli_test_views.h"

namespace fairway::cli {
namespace {

wire::JobView finished(std::uint64_t id, const std::string& account, const std::string& user,
                       std::int64_t start, std::int64_t end, int cores, int gpus) {
  wire::JobView j;
  j.id = JobId(id);
  j.account = account;
  j.user = user;
  j.state = JobState::kCompleted;
  j.start_time = Time::from_seconds(start);
  j.end_time = Time::from_seconds(end);
  wire::JobAllocationView a;
  a.node = "n1";
  for (int c = 0; c < cores; ++c) a.cores.push_back(c);
  for (int g = 0; g < gpus; ++g) a.gpus.push_back(g);
  j.allocation = {a};
  return j;
}

TEST(UsageReport, RunsAreClippedToThePeriodAndSummedPerAccountAndUser) {
  testing::use_utc();
  const Time from = Time::from_seconds(100'000), to = Time::from_seconds(100'000 + 10 * 3600);
  wire::JobQueryReply r;
  r.jobs = {finished(1, "chem", "alice", 100'000, 100'000 + 7200, 4, 0),       // 2 h x 4 cores
            finished(2, "chem", "bob", 100'000 - 3600, 100'000 + 3600, 2, 1),  // 1 h inside, 1 GPU
            finished(3, "phys", "carol", 100'000 + 9 * 3600, 100'000 + 12 * 3600, 10, 0),  // 1 h inside
            finished(4, "phys", "carol", 10, 20, 10, 0)};                                  // before: none
  wire::JobView never = finished(5, "phys", "carol", 0, 0, 1, 0);
  never.start_time.reset();
  r.jobs.push_back(never);
  EXPECT_EQ(render_usage_report(r, from, to, true, false),
            "Account|User|Jobs|CoreHours|GPUHours\n"
            "chem||2|10.00|1.00\n"
            "chem|alice|1|8.00|0.00\n"
            "chem|bob|1|2.00|1.00\n"
            "phys||1|10.00|0.00\n"
            "phys|carol|1|10.00|0.00\n");
}

TEST(UsageReport, AsksTheStoreForJobsEndedSinceThePeriodStarted) {
  std::vector<wire::JobQuery> sent;
  const Transport t = [&](const wire::Message& m) -> Result<wire::Message> {
    sent.push_back(std::get<wire::JobQuery>(m));
    return wire::JobQueryReply{};
  };
  std::ostringstream out, err;
  ReportOptions o;
  o.start = "now-7days";
  o.account = "chem";
  const Time now = Time::from_seconds(1'800'000'000);
  ASSERT_EQ(run_usage_report(o, now, t, Output{out, err}), kExitOk) << err.str();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_TRUE(sent[0].from_store);
  EXPECT_EQ(sent[0].account, "chem");
  EXPECT_EQ(sent[0].ended_after, now - Duration::days(7));
  o.end = "now-8days";
  EXPECT_EQ(run_usage_report(o, now, t, Output{out, err}), kExitUsage);
  EXPECT_NE(err.str().find("the period is empty"), std::string::npos);
}

}  // namespace
}  // namespace fairway::cli
