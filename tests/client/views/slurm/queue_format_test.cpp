#include "client/views/slurm/queue_format.h"

#include <gtest/gtest.h>

#include <sstream>

#include "client/fairway/commands.h"
#include "tests/client/cli_test_views.h"

namespace fairway::cli {
namespace {

class QueueFormat : public ::testing::Test {
 protected:
  void SetUp() override { testing::use_utc(); }
  wire::JobQueryReply reply() const {
    wire::JobQueryReply r;
    r.now = Time::from_seconds(testing::kEpoch + 3660);  // the running job has run an hour
    r.jobs = {testing::running_job(), testing::pending_job()};
    return r;
  }
};

TEST_F(QueueFormat, FieldsHaveSqueuesLettersHeadersWidthsAndCuts) {
  auto fields = parse_queue_format("%.5i|-%9P|%u %t %M %L %D %C %b %R %%");
  ASSERT_TRUE(fields) << fields.error().message;
  EXPECT_EQ(render_queue_format(reply(), *fields, true),
            "JOBID|-PARTITION|USER ST TIME TIME_LEFT NODES CPUS TRES_PER_NODE NODELIST(REASON) %\n"
            "  101|-gpu      |alice R 1:00:00 1:00:00 2 8 gres:gpu:a100:1 gpu-01,gpu-02 %\n"
            "  102|-batch    |bob PD 0:00 30:00 - 64 N/A (Resources,Priority) %\n");
  auto memory = parse_queue_format("%i %m");
  ASSERT_TRUE(memory);
  EXPECT_EQ(render_queue_format(reply(), *memory, true), "JOBID MIN_MEMORY\n101 4G\n102 0\n");
  auto cut = parse_queue_format("%.3j");
  ASSERT_TRUE(cut);
  EXPECT_EQ(render_queue_format(reply(), *cut, false), "tra\nswe\n") << "squeue cuts values to their width";
}

// %k, %y and %q as Slurm's squeue prints them (conformance captures): "(null)" for no
// comment, the nice value, the QOS scontrol shows ("normal" when the job names none).
TEST_F(QueueFormat, CommentNiceAndQos) {
  auto r = reply();
  r.jobs[0].comment = "rule=align";
  r.jobs[0].nice = 10;
  r.jobs[1].qos.clear();
  auto fields = parse_queue_format("%i %k %y %q");
  ASSERT_TRUE(fields) << fields.error().message;
  EXPECT_EQ(render_queue_format(r, *fields, true),
            "JOBID COMMENT NICE QOS\n101 rule=align 10 " +
                (r.jobs[0].qos.empty() ? std::string("normal") : r.jobs[0].qos) + "\n102 (null) 0 normal\n");
}

TEST_F(QueueFormat, BadFormatsAndSortKeysNameWhatIsWrong) {
  auto unknown = parse_queue_format("%i %H");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("unknown field %H at position 4"), std::string::npos)
      << unknown.error().message;
  auto dangling = parse_queue_format("%i %.8");
  ASSERT_FALSE(dangling);
  EXPECT_NE(dangling.error().message.find("has no field letter"), std::string::npos);
  auto key = parse_sort_keys("-p,zz");
  ASSERT_FALSE(key);
  EXPECT_NE(key.error().message.find("unknown key \"zz\""), std::string::npos) << key.error().message;
}

TEST_F(QueueFormat, SortKeysOrderByValueNotText) {
  auto r = reply();
  wire::JobView low = testing::pending_job();
  low.id = JobId(9);
  low.priority = 2;
  r.jobs.push_back(low);
  auto desc = parse_sort_keys("-p");
  ASSERT_TRUE(desc);
  sort_jobs(r.jobs, *desc, r.now);
  EXPECT_EQ(r.jobs[0].id, JobId(101));  // 1500.25, then 12.5, then 2
  EXPECT_EQ(r.jobs[2].id, JobId(9));
  auto by_id = parse_sort_keys("i");
  ASSERT_TRUE(by_id);
  sort_jobs(r.jobs, *by_id, r.now);
  EXPECT_EQ(r.jobs[0].id, JobId(9)) << "9 before 101 as numbers, not as text";
}

TEST_F(QueueFormat, StartListsWaitingJobsSoonestFirstWithTheirEstimates) {
  std::vector<wire::JobQuery> sent;
  const Transport t = [&](const wire::Message& m) -> Result<wire::Message> {
    sent.push_back(std::get<wire::JobQuery>(m));
    wire::JobQueryReply r;
    wire::JobView later = testing::pending_job();
    later.id = JobId(103);
    later.estimated_start = Time::from_seconds(testing::kEpoch + 9000);
    r.jobs = {later, testing::pending_job()};
    return r;
  };
  std::ostringstream out, err;
  QueueOptions o;
  o.start = true;
  ASSERT_EQ(run_queue(o, t, Output{out, err}), kExitOk) << err.str();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].states, (std::vector<JobState>{JobState::kPending, JobState::kBlocked, JobState::kHeld}));
  const std::string text = out.str();
  EXPECT_NE(text.find("START_TIME"), std::string::npos) << text;
  EXPECT_LT(text.find("2023-11-15T00:13:20"), text.find("2023-11-15T00:43:20")) << text;
  std::ostringstream bad_out, bad_err;
  o.format = "%q %Y";
  EXPECT_EQ(run_queue(o, t, Output{bad_out, bad_err}), kExitUsage);
}

}  // namespace
}  // namespace fairway::cli
