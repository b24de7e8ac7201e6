#include "client/fairway/priority_command.h"

#include <gtest/gtest.h>

#include <sstream>

namespace fairway::cli {
namespace {

wire::JobView waiting(std::uint64_t id, const std::string& user, double age, double fairshare) {
  wire::JobView v;
  v.id = JobId(id);
  v.user = user;
  v.partition = "batch";
  v.priority = age + fairshare;
  v.priority_factors = {{"age", age, age / 2}, {"fairshare", fairshare, fairshare / 1000}, {"qos", 0, 0}};
  return v;
}

TEST(Priority, AsksForWaitingJobsAndRanksThemWithEveryTerm) {
  std::vector<wire::JobQuery> sent;
  const Transport t = [&](const wire::Message& m) -> Result<wire::Message> {
    sent.push_back(std::get<wire::JobQuery>(m));
    wire::JobQueryReply r;
    r.jobs = {waiting(7, "alice", 100, 250.5), waiting(8, "bob", 1000, 0), waiting(9, "carol", 350.5, 0)};
    return r;
  };
  std::ostringstream out, err;
  PriorityOptions o;
  o.user = "alice";
  o.jobs = "7,8";
  ASSERT_EQ(run_priority(o, t, Output{out, err}), kExitOk) << err.str();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].user, "alice");
  EXPECT_EQ(sent[0].states, (std::vector<JobState>{JobState::kPending, JobState::kBlocked}));
  EXPECT_EQ(sent[0].jobs, (std::vector<JobId>{JobId(7), JobId(8)}));
  // Highest first; equal totals (7 and 9 both 350.5) by job id.
  EXPECT_EQ(out.str(),
            "JOBID  PARTITION  USER   PRIORITY  AGE    FAIRSHARE  QOS\n"
            "8      batch      bob    1000      1000   0          0\n"
            "7      batch      alice  350.5     100    250.5      0\n"
            "9      batch      carol  350.5     350.5  0          0\n");
}

TEST(Priority, RawShowsEachTermBeforeItsWeight) {
  wire::JobQueryReply r;
  r.jobs = {waiting(7, "alice", 100, 250)};
  EXPECT_EQ(render_priority(r, true),
            "JOBID  PARTITION  USER   PRIORITY  AGE  FAIRSHARE  QOS\n"
            "7      batch      alice  350       50   0.25       0\n");
  EXPECT_NE(priority_json(r).find("\"raw_factors\""), std::string::npos);
}

TEST(Priority, JsonKeepsTheRankAndEveryTermByName) {
  wire::JobQueryReply r;
  r.jobs = {waiting(1, "alice", 1, 2), waiting(2, "bob", 10, 0)};
  const std::string json = priority_json(r);
  EXPECT_LT(json.find("\"id\": 2"), json.find("\"id\": 1")) << json;
  EXPECT_NE(json.find("\"fairshare\": 2.0"), std::string::npos) << json;
}

TEST(Priority, BadJobIdsAreUsageErrors) {
  const Transport never = [](const wire::Message&) -> Result<wire::Message> {
    ADD_FAILURE() << "no request expected";
    return wire::JobQueryReply{};
  };
  std::ostringstream out, err;
  PriorityOptions o;
  o.jobs = "7,x";
  EXPECT_EQ(run_priority(o, never, Output{out, err}), kExitUsage);
  EXPECT_NE(err.str().find("x"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace fairway::cli
