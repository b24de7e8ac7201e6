#include "coordinator/cli/history_command.h"
#include "coordinator/cli/slurm_commands.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <sstream>

namespace fairway::cli {
namespace {

TEST(History, TimesAreDatesOrTimeAgo) {
  const Time now = Time::from_seconds(1'800'000'000);
  EXPECT_EQ(parse_history_time("--starttime", "now-2hours", now).value(), now - Duration::hours(2));
  EXPECT_EQ(parse_history_time("--starttime", "now-7days", now).value(), now - Duration::days(7));
  EXPECT_EQ(parse_history_time("--endtime", "noon", now).error().message,
            "--endtime=noon: expected YYYY-MM-DD[THH:MM[:SS]], now, now-COUNT[units], today or midnight");
  EXPECT_EQ(parse_history_time("--endtime", "now", now).value(), now);
  EXPECT_LE(parse_history_time("--starttime", "midnight", now).value(), now);
  EXPECT_GT(parse_history_time("--starttime", "midnight", now).value(), now - Duration::days(1));
  EXPECT_EQ(parse_history_time("--starttime", "now-3fortnights", now).error().message,
            "--starttime=now-3fortnights: expected now-COUNT[units]");
  EXPECT_TRUE(parse_history_time("--starttime", "2026-11-01", now).has_value());
}

TEST(History, SendsAStoreQueryAndPrintsSacctFields) {
  std::vector<wire::JobQuery> sent;
  const Transport t = [&](const wire::Message& m) -> Result<wire::Message> {
    sent.push_back(std::get<wire::JobQuery>(m));
    wire::JobQueryReply r;
    r.now = Time::from_seconds(1000);
    wire::JobView v;
    v.id = JobId(42);
    v.name = "md";
    v.user = "alice";
    v.account = "chem";
    v.partition = "batch";
    v.state = JobState::kOutOfMemory;
    v.signal = 9;
    v.start_time = Time::from_seconds(100);
    v.end_time = Time::from_seconds(700);
    v.allocation = {{"cn01", {0, 1}, {}}, {"cn02", {0, 1}, {}}};
    v.peak_memory_bytes = std::int64_t{64} << 20;
    v.cpu_time_ms = 61'000;
    r.jobs.push_back(v);
    return r;
  };
  std::ostringstream out, err;
  HistoryOptions o;
  o.account = "chem";
  o.states = "OOM,F";
  o.start = "now-1days";
  o.parsable = true;
  ASSERT_EQ(run_history(o, Time::from_seconds(1'800'000'000), t, Output{out, err}), kExitOk) << err.str();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_TRUE(sent[0].from_store);
  EXPECT_EQ(sent[0].account, "chem");
  EXPECT_EQ(sent[0].states, (std::vector<JobState>{JobState::kOutOfMemory, JobState::kFailed}));
  EXPECT_EQ(sent[0].ended_after, Time::from_seconds(1'800'000'000 - 86400));
  const std::string text = out.str();
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "JobID|JobName|User|Account|Partition|State|ExitCode|Start|End|Elapsed|AllocCPUS|NodeList|MaxRSS|CPUTime");
  EXPECT_NE(text.find("42|md|alice|chem|batch|OOM|0:9|"), std::string::npos) << text;
  EXPECT_NE(text.find("|4|cn[01-02]|64M|"), std::string::npos) << text;
}

// Snakemake 8's poll: `sacct -X --parsable2 --noheader --format=JobIdRaw,State
// --starttime now-2days --endtime now --name RUN`: its running jobs are in a window that
// ends now, and only the jobs named RUN are its own.
TEST(History, AWindowEndingNowHoldsTheLiveJobsAndNamesFilter) {
  const Time now = Time::from_seconds(1'800'000'000);
  const Transport t = [&](const wire::Message& m) -> Result<wire::Message> {
    const auto& q = std::get<wire::JobQuery>(m);
    wire::JobQueryReply r;
    r.now = now;
    const auto job = [&](std::uint64_t id, const char* name, JobState state) {
      wire::JobView v;
      v.id = JobId(id);
      v.name = name;
      v.state = state;
      r.jobs.push_back(v);
    };
    if (q.from_store) {
      job(1, "run-a", JobState::kCompleted);
      job(2, "other", JobState::kCompleted);
    } else {
      job(3, "run-a", JobState::kRunning);
      job(4, "other", JobState::kRunning);
    }
    return r;
  };
  auto translated = translate_slurm_command(
      "sacct", {"-X", "--parsable2", "--noheader", "--format=JobIdRaw,State", "--starttime", "now-2days", "--endtime", "now",
                "--name", "run-a"},
      {"alice", {}});
  ASSERT_TRUE(translated) << translated.error().message;
  HistoryOptions o;
  o.live = true;
  o.sacct_table = true;
  o.parsable = true;
  o.noheader = true;
  o.format = "JobIdRaw,State";
  o.start = "now-2days";
  o.end = "now";
  o.names = "run-a";
  std::ostringstream out, err;
  ASSERT_EQ(run_history(o, now, t, Output{out, err}), kExitOk) << err.str();
  EXPECT_EQ(out.str(), "1|COMPLETED\n3|RUNNING\n");
  const auto& args = translated->fairway_args;
  EXPECT_NE(std::find(args.begin(), args.end(), "--name"), args.end());
}

TEST(History, FormatPicksSacctFieldsWithWidths) {
  auto cols = parse_history_format("jobid,State,elapsedraw,JobName%4,MaxRSS");
  ASSERT_TRUE(cols) << cols.error().message;
  wire::JobQueryReply r;
  r.now = Time::from_seconds(1000);
  wire::JobView v;
  v.id = JobId(42);
  v.name = "longname";
  v.state = JobState::kTimeout;
  v.start_time = Time::from_seconds(100);
  v.end_time = Time::from_seconds(700);
  r.jobs.push_back(v);
  EXPECT_EQ(render_history(r, true, *cols), "JobID|State|ElapsedRaw|JobName|MaxRSS\n42|TIMEOUT|600|longname|\n");
  EXPECT_NE(render_history(r, false, *cols).find("lon+"), std::string::npos) << "cut to 4, marked as sacct does";
  auto bad = parse_history_format("JobID,Bogus");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("unknown field \"Bogus\""), std::string::npos) << bad.error().message;
  EXPECT_FALSE(parse_history_format("JobID%0"));
  EXPECT_FALSE(parse_history_format(""));
}

// sacct's own table, as Slurm 22.05 lays it out: default fields and widths, JobID to the
// left, the rest to the right, dashes under the header, a blank after every field.
TEST(History, SacctTableHasSlurmsLayout) {
  auto cols = parse_history_format(kSacctDefaultFormat);
  ASSERT_TRUE(cols);
  wire::JobQueryReply r;
  wire::JobView v;
  v.id = JobId(3);
  v.name = "a-rather-long-name";
  v.partition = "debug";
  v.account = "root";
  v.state = JobState::kCompleted;
  v.exit_code = 0;
  v.allocation = {{"cn01", {0}, {}}};
  r.jobs.push_back(v);
  EXPECT_EQ(render_sacct_table(r, *cols, true),
            "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode \n"
            "------------ ---------- ---------- ---------- ---------- ---------- -------- \n"
            "3            a-rather-+      debug       root          1  COMPLETED      0:0 \n");
  EXPECT_EQ(render_sacct_table(r, *parse_history_format("Account%20"), false), "                root \n");
  // sacct -p: every field ended by '|'.
  EXPECT_EQ(render_history(r, true, *parse_history_format("JobID,State"), true, true), "JobID|State|\n3|COMPLETED|\n");
}

// DerivedExitCode is the worst of the job's steps; a step's line has its own TRES and no
// derived code or memory request; memory in sacct's units.
TEST(History, DerivedExitCodeAllocTresAndReqMemAsSacctSpellsThem) {
  auto cols = parse_history_format("JobID,DerivedExitCode,AllocTRES,ReqMem");
  ASSERT_TRUE(cols);
  wire::JobQueryReply r;
  wire::JobView v;
  v.id = JobId(9);
  v.state = JobState::kCompleted;
  v.memory_per_cpu_mb = 1500;
  v.allocation = {{"cn01", {0, 1}, {0}}};
  v.steps = {{0, "a", JobState::kCancelled, Time::from_seconds(1), Time::from_seconds(2), 0, 9, 1, 1},
             {1, "b", JobState::kFailed, Time::from_seconds(1), Time::from_seconds(2), 2, 0, 1, 1}};
  wire::JobView step = v;
  step.steps.clear();
  r.jobs = {v, step};
  const std::vector<std::string> suffixes = {"", ".1"};
  EXPECT_EQ(render_history(r, true, *cols, false, false, &suffixes),
            "9|2:0|billing=2,cpu=2,gres/gpu=1,mem=3000M,node=1|3000M\n"
            "9.1||cpu=2,gres/gpu=1,mem=0,node=1|\n");
  r.jobs[0].memory_per_cpu_mb = 0;
  r.jobs[0].memory_per_node_mb = 64000;
  r.jobs[0].allocation.clear();  // waiting: nothing allocated
  r.jobs.resize(1);
  EXPECT_EQ(render_history(r, true, *cols, false), "9|2:0||62.50G\n");
  r.jobs[0].memory_per_node_mb = 2048;
  EXPECT_EQ(render_history(r, true, *parse_history_format("ReqMem"), false), "2G\n");
}

}  // namespace
}  // namespace fairway::cli
