#include "client/fairway/history_command.h"
#include "client/slurm/slurm_commands.h"
#include "shared/base/duration_format.h"

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
            "JobID|JobName|User|Account|Partition|State|ExitCode|Start|End|Elapsed|AllocCPUS|NodeList|MaxRSS|"
            "TotalCPU");
  EXPECT_NE(text.find("42|md|alice|chem|batch|OOM|0:9|"), std::string::npos) << text;
  EXPECT_NE(text.find("|4|cn[01-02]|64M|00:01:01\n"), std::string::npos) << text;
}

// sacct's usage fields: CPUTime is what was allocated (elapsed times CPUs), TotalCPU what
// was used; MaxRSS in sacct's units; a step's from its own tasks, and the job's line has
// none when its steps' lines are shown, as sacct prints them.
TEST(History, UsageFieldsAreSacctsForTheJobItsScriptAndItsSteps) {
  EXPECT_EQ(sacct_memory(std::int64_t{84500} * 1024), "84500K");
  EXPECT_EQ(sacct_memory(std::int64_t{2} << 30), "2G");
  EXPECT_EQ(sacct_memory(std::int64_t{3} << 20), "3M");
  EXPECT_EQ(sacct_memory(1000), "1000");
  EXPECT_EQ(sacct_memory(0), "0");
  EXPECT_EQ(sacct_memory(std::nullopt), "");
  EXPECT_EQ(sacct_cpu_time(4'094), "00:04.094");
  EXPECT_EQ(sacct_cpu_time(0), "00:00:00");
  EXPECT_EQ(sacct_cpu_time(61'000), "00:01:01");
  EXPECT_EQ(sacct_cpu_time(3'723'500), "01:02:03");
  EXPECT_EQ(sacct_cpu_time(86'405'000), "1-00:00:05");
  EXPECT_EQ(sacct_cpu_time(std::nullopt), "");
  // sacct's Elapsed, CPUTime and Timelimit are Slurm's walltime spelling.
  EXPECT_EQ(format_walltime(Duration::seconds(7)), "00:00:07");
  EXPECT_EQ(format_walltime(Duration::seconds(36000)), "10:00:00");
  EXPECT_EQ(format_walltime(Duration::days(365)), "365-00:00:00");

  const Transport t = [&](const wire::Message& m) -> Result<wire::Message> {
    const auto& q = std::get<wire::JobQuery>(m);
    wire::JobQueryReply r;
    r.now = Time::from_seconds(1'800'000'000);
    if (!q.from_store) return r;
    wire::JobView v;
    v.id = JobId(2);
    v.name = "wrap";
    v.state = JobState::kCompleted;
    v.exit_code = 0;
    v.submit_time = Time::from_seconds(1'799'999'000);
    v.start_time = Time::from_seconds(1'799'999'100);
    v.end_time = Time::from_seconds(1'799'999'107);
    v.allocation = {{"c2", {0, 1}, {}}};
    v.time_limit = Duration::days(365);
    v.peak_memory_bytes = std::int64_t{3268} * 1024;
    v.cpu_time_ms = 5'674;
    v.steps = {wire::StepView{0, "python3", JobState::kCompleted, Time::from_seconds(1'799'999'102),
                              Time::from_seconds(1'799'999'104), 0, 0, 2, 1, 84500, 4'094'123},
               wire::StepView{1, "true", JobState::kCompleted, Time::from_seconds(1'799'999'105),
                              Time::from_seconds(1'799'999'105), 0, 0, 1, 1}};
    r.jobs.push_back(v);
    return r;
  };
  std::ostringstream out, err;
  HistoryOptions o;
  o.jobs = "2";
  o.parsable = true;
  o.noheader = true;
  o.batch_steps = true;
  o.sacct_table = true;
  o.format = "JobID,Elapsed,Timelimit,AllocCPUS,CPUTime,CPUTimeRAW,TotalCPU,MaxRSS";
  ASSERT_EQ(run_history(o, Time::from_seconds(1'800'000'000), t, Output{out, err}), kExitOk) << err.str();
  EXPECT_EQ(out.str(),
            "2|00:00:07|365-00:00:00|2|00:00:14|14|00:05.674|\n"
            "2.batch|00:00:07||2|00:00:14|14|00:05.674|3268K\n"
            "2.0|00:00:02||2|00:00:04|4|00:04.094|84500K\n"
            "2.1|00:00:00||2|00:00:00|0||\n");
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
  auto translated =
      translate_slurm_command("sacct",
                              {"-X", "--parsable2", "--noheader", "--format=JobIdRaw,State", "--starttime",
                               "now-2days", "--endtime", "now", "--name", "run-a"},
                              {"alice", {}});
  ASSERT_TRUE(translated) << translated.error().message;
  ASSERT_TRUE(translated->call);
  // sacct fills fairway history's options itself.
  const HistoryOptions o = std::get<SlurmHistoryCall>(*translated->call).options;
  EXPECT_TRUE(o.live && o.sacct_table && o.parsable && o.noheader && !o.batch_steps);
  EXPECT_EQ(o.format, "JobIdRaw,State");
  EXPECT_EQ(o.start, "now-2days");
  EXPECT_EQ(o.end, "now");
  EXPECT_EQ(o.names, "run-a");
  std::ostringstream out, err;
  ASSERT_EQ(run_history(o, now, t, Output{out, err}), kExitOk) << err.str();
  EXPECT_EQ(out.str(), "1|COMPLETED\n3|RUNNING\n");
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
  EXPECT_EQ(render_history(r, true, *cols),
            "JobID|State|ElapsedRaw|JobName|MaxRSS\n42|TIMEOUT|600|longname|\n");
  EXPECT_NE(render_history(r, false, *cols).find("lon+"), std::string::npos)
      << "cut to 4, marked as sacct does";
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
  EXPECT_EQ(render_history(r, true, *parse_history_format("JobID,State"), true, true),
            "JobID|State|\n3|COMPLETED|\n");
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
