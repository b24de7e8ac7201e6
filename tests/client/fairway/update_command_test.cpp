#include "client/fairway/update_command.h"

#include <gtest/gtest.h>

#include <sstream>

namespace fairway::cli {
namespace {

const Time kNow = Time::from_seconds(1'800'000'000);

TEST(UpdateCommand, ScontrolKeysInAnyCase) {
  auto u = parse_job_update({"job", "7,9", "TimeLimit=1:30:00", "partition=long", "QOS=high", "Account=chem",
                             "JobName=renamed", "Comment=", "Nice=50", "StartTime=now+1hour"},
                            kNow);
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->jobs, (std::vector<JobId>{JobId(7), JobId(9)}));
  EXPECT_EQ(u->time_limit, Duration::minutes(90));
  EXPECT_EQ(u->partition, "long");
  EXPECT_EQ(u->qos, "high");
  EXPECT_EQ(u->account, "chem");
  EXPECT_EQ(u->name, "renamed");
  EXPECT_EQ(u->comment, std::string());
  EXPECT_EQ(u->nice, 50);
  EXPECT_EQ(u->begin, kNow + Duration::hours(1));
}

TEST(UpdateCommand, ErrorsNameTheWordAtFault) {
  const auto error = [](std::vector<std::string> words) {
    auto u = parse_job_update(words, kNow);
    return u ? std::string("parsed") : u.error().message;
  };
  EXPECT_NE(error({"node", "cn1"}).find("only jobs can be updated"), std::string::npos);
  EXPECT_NE(error({"job"}).find("no job id"), std::string::npos);
  EXPECT_NE(error({"job", "x"}).find("\"x\" is not a job number"), std::string::npos);
  EXPECT_NE(error({"job", "7"}).find("nothing to change"), std::string::npos);
  EXPECT_NE(error({"job", "7", "TimeLimit=soon"}).find("TimeLimit=soon"), std::string::npos);
  EXPECT_NE(error({"job", "7", "TimeLimit=UNLIMITED"}).find("positive walltime"), std::string::npos);
  EXPECT_NE(error({"job", "7", "Nice=lots"}).find("Nice=lots: expected a whole number"), std::string::npos);
  EXPECT_NE(error({"job", "7", "Priority=9"}).find("unknown key \"Priority\""), std::string::npos);
  EXPECT_NE(error({"job", "7", "TimeLimit"}).find("\"TimeLimit\" is not Key=Value"), std::string::npos);
}

TEST(UpdateCommand, EachRefusalIsPrintedAndTheExitSaysSo) {
  const Transport t = [](const wire::Message& m) -> Result<wire::Message> {
    wire::JobControlReply r;
    for (JobId id : std::get<wire::JobUpdate>(m).jobs) {
      r.results.push_back(
          {id, id.value() != 9, id.value() == 9 ? "job 9 belongs to 'bob', not 'alice'" : ""});
    }
    return r;
  };
  std::ostringstream out, err;
  EXPECT_EQ(run_update({"job", "7,9", "TimeLimit=10"}, kNow, false, t, Output{out, err}), kExitFailure);
  EXPECT_EQ(err.str(), "fairway: error: update job 9: job 9 belongs to 'bob', not 'alice'\n");
  std::ostringstream jout, jerr;
  EXPECT_EQ(run_update({"job", "7,9", "TimeLimit=10"}, kNow, true, t, Output{jout, jerr}), kExitFailure);
  EXPECT_EQ(jerr.str(), "");
  EXPECT_NE(jout.str().find("\"ok\": false"), std::string::npos) << jout.str();
}

}  // namespace
}  // namespace fairway::cli
