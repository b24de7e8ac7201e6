#include "agent/os/launch_checkpoint.h"

#include <sys/stat.h>

#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

using testing::TempDir;

JobCheckpoint of_this_process(std::uint64_t job) {
  auto stat = read_proc_stat(::getpid());
  EXPECT_TRUE(stat);
  return JobCheckpoint{JobId(job),         ::getpid(), ::getpgrp(), Time::from_seconds(1'700'000'000),
                       Duration::hours(2), {0, 1, 5},  {1},         stat ? stat->start_ticks : 0};
}

TEST(LaunchCheckpointTest, FormatAndParseRoundTrip) {
  JobCheckpoint c = of_this_process(12);
  c.gpus.clear();
  auto parsed = parse_checkpoint(format_checkpoint(c));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(*parsed, c);
}

TEST(LaunchCheckpointTest, TheSignalWarningRoundTripsAndOlderFilesHaveNone) {
  JobCheckpoint c = of_this_process(13);
  c.warn_signal = 10;
  c.warn_before_s = 300;
  c.warn_batch_only = true;
  const std::string text = format_checkpoint(c);
  EXPECT_NE(text.find("\nwarning 10 300 batch\n"), std::string::npos) << text;
  auto parsed = parse_checkpoint(text);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(*parsed, c);
  EXPECT_EQ(parse_checkpoint(format_checkpoint(of_this_process(13)))->warn_signal, 0);  // none written
  std::string bad = text;
  bad.replace(bad.find("batch"), 5, "maybe");
  EXPECT_EQ(parse_checkpoint(bad).error().message,
            "field 'warning': '10 300 maybe' is not SIG SECONDS batch|group");
}

TEST(LaunchCheckpointTest, TheRunRoundTripsAndOlderFilesNameNone) {
  JobCheckpoint c = of_this_process(14);
  c.attempt = 3;
  const std::string text = format_checkpoint(c);
  EXPECT_NE(text.find("\nattempt 3\n"), std::string::npos) << text;
  auto parsed = parse_checkpoint(text);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(*parsed, c);
  c.attempt.reset();
  EXPECT_EQ(format_checkpoint(c).find("attempt"), std::string::npos);
  EXPECT_EQ(parse_checkpoint(format_checkpoint(c))->attempt, std::nullopt);
  std::string bad = text;
  bad.replace(bad.find("attempt 3"), 9, "attempt -2");
  EXPECT_EQ(parse_checkpoint(bad).error().message, "field 'attempt': -2 is negative");
  c.attempt = 0;  // what a job's keeper completes carries it too
  EXPECT_NE(format_checkpoint_without_process(c).find("\nattempt 0\n"), std::string::npos);
}

TEST(LaunchCheckpointTest, SavedLiveJobIsLoadedAsLive) {
  TempDir dir;
  const LaunchCheckpoint store(dir.path());
  const JobCheckpoint c = of_this_process(12);
  ASSERT_TRUE(store.save(c));
  struct stat st {};
  ASSERT_EQ(::stat(store.path_of(JobId(12)).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_FALSE(std::filesystem::exists(store.path_of(JobId(12)) + ".tmp"));
  const CheckpointScan scan = store.load_all();
  EXPECT_TRUE(scan.errors.empty());
  EXPECT_TRUE(scan.lost.empty());
  ASSERT_EQ(scan.live.size(), 1u);
  EXPECT_EQ(scan.live[0], c);
}

TEST(LaunchCheckpointTest, SaveReplacesTheJobsEarlierCheckpoint) {
  TempDir dir;
  const LaunchCheckpoint store(dir.path() + "/");
  JobCheckpoint c = of_this_process(12);
  ASSERT_TRUE(store.save(c));
  c.cores = {7};
  ASSERT_TRUE(store.save(c));
  const CheckpointScan scan = store.load_all();
  ASSERT_EQ(scan.live.size(), 1u);
  EXPECT_EQ(scan.live[0].cores, std::vector<std::int32_t>{7});
}

TEST(LaunchCheckpointTest, DeadPidIsReportedLost) {
  TempDir dir;
  const LaunchCheckpoint store(dir.path());
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_TRUE(testing::wait_for_exit(child));
  JobCheckpoint dead = of_this_process(3);
  dead.pid = child;
  dead.pgid = child;
  ASSERT_TRUE(store.save(dead));
  const CheckpointScan scan = store.load_all();
  EXPECT_TRUE(scan.live.empty());
  ASSERT_EQ(scan.lost.size(), 1u);
  EXPECT_EQ(scan.lost[0].job, JobId(3));
  // The lost job's file stays until its end is reported and remove() is called.
  EXPECT_TRUE(std::filesystem::exists(store.path_of(JobId(3))));
  ASSERT_TRUE(store.remove(JobId(3)));
  EXPECT_FALSE(std::filesystem::exists(store.path_of(JobId(3))));
  EXPECT_TRUE(store.remove(JobId(3)));  // twice is fine
}

TEST(LaunchCheckpointTest, ReusedPidIsReportedLost) {
  TempDir dir;
  const LaunchCheckpoint store(dir.path());
  JobCheckpoint reused = of_this_process(4);  // our pid, but another process start time
  reused.process_start_ticks += 1;
  ASSERT_TRUE(store.save(reused));
  const CheckpointScan scan = store.load_all();
  EXPECT_TRUE(scan.live.empty());
  ASSERT_EQ(scan.lost.size(), 1u);
}

TEST(LaunchCheckpointTest, CorruptFilesAreSkippedWithAnError) {
  TempDir dir;
  const LaunchCheckpoint store(dir.path());
  ASSERT_TRUE(store.save(of_this_process(1)));
  testing::write_text(store.path_of(JobId(2)), "garbage\x01\x02");
  std::string bad_pid = format_checkpoint(of_this_process(3));
  bad_pid.replace(bad_pid.find("\npid "), 5, "\npid x");
  testing::write_text(store.path_of(JobId(3)), bad_pid);
  testing::write_text(store.path_of(JobId(4)), format_checkpoint(of_this_process(5)));
  testing::write_text(dir / "job-6.checkpoint.tmp", "half-written");  // not a checkpoint name
  testing::write_text(dir / "fairway-job-6.sh", "echo\n");
  const CheckpointScan scan = store.load_all();
  ASSERT_EQ(scan.live.size(), 1u);
  EXPECT_EQ(scan.live[0].job, JobId(1));
  ASSERT_EQ(scan.errors.size(), 3u);
  EXPECT_NE(scan.errors[0].message.find("job-2.checkpoint: header"), std::string::npos)
      << scan.errors[0].message;
  EXPECT_NE(scan.errors[1].message.find("job-3.checkpoint: field 'pid': 'x"), std::string::npos)
      << scan.errors[1].message;
  EXPECT_NE(scan.errors[2].message.find("field 'job': 5 does not match the file name"), std::string::npos)
      << scan.errors[2].message;
}

TEST(LaunchCheckpointTest, ParseNamesMissingUnknownAndRepeatedFields) {
  const std::string good = format_checkpoint(of_this_process(9));
  std::string missing = good;
  missing.erase(missing.find("gpus "), missing.find('\n', missing.find("gpus ")) - missing.find("gpus ") + 1);
  auto a = parse_checkpoint(missing);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, "missing field 'gpus'");
  auto b = parse_checkpoint(good + "colour blue\n");
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().message, "unknown field 'colour'");
  auto c = parse_checkpoint(good + "pid 5\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, "field 'pid' appears twice");
  auto d = parse_checkpoint("");
  ASSERT_FALSE(d);
  std::string bad_list = good;
  bad_list.replace(bad_list.find("cores 0,1,5"), 11, "cores 0,,5");
  auto e = parse_checkpoint(bad_list);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("field 'cores'"), std::string::npos);
}

StepCheckpoint step_of_this_process(std::uint64_t job, std::int32_t step) {
  auto stat = read_proc_stat(::getpid());
  EXPECT_TRUE(stat);
  return StepCheckpoint{JobId(job), step, ::getpid(), ::getpgrp(), stat ? stat->start_ticks : 0};
}

// A step's relay is checkpointed in a file of its own beside its job's, which an agent
// from before steps were checkpointed passes over (it is no "job-<id>.checkpoint").
TEST(LaunchCheckpointTest, AStepsRelayIsKeptBesideItsJobAndSplitLiveOrLost) {
  TempDir dir;
  const LaunchCheckpoint store(dir.path());
  ASSERT_TRUE(store.save(of_this_process(7)));
  const StepCheckpoint live = step_of_this_process(7, 2);
  ASSERT_TRUE(store.save_step(live));
  EXPECT_EQ(store.path_of_step(JobId(7), 2), dir.path() + "/job-7.step-2.checkpoint");
  StepCheckpoint reused = step_of_this_process(7, 3);  // our pid, another start time
  reused.process_start_ticks += 1;
  ASSERT_TRUE(store.save_step(reused));
  struct stat st {};
  ASSERT_EQ(::stat(store.path_of_step(JobId(7), 2).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const CheckpointScan scan = store.load_all();
  EXPECT_TRUE(scan.errors.empty()) << scan.errors[0].message;
  ASSERT_EQ(scan.live.size(), 1u) << "a step's file is not a job's";
  EXPECT_EQ(scan.live_steps, std::vector<StepCheckpoint>{live});
  EXPECT_EQ(scan.lost_steps, std::vector<StepCheckpoint>{reused});
  ASSERT_TRUE(store.remove_step(JobId(7), 3));
  EXPECT_TRUE(store.remove_step(JobId(7), 3));  // twice is fine
  EXPECT_TRUE(store.load_all().lost_steps.empty());
  EXPECT_TRUE(std::filesystem::exists(store.path_of(JobId(7)))) << "the job's own file stays";
}

TEST(LaunchCheckpointTest, AStepCheckpointIsParsedStrictly) {
  const StepCheckpoint c = step_of_this_process(9, 1);
  const std::string good = format_step_checkpoint(c);
  auto parsed = parse_step_checkpoint(good);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(*parsed, c);
  EXPECT_EQ(parse_step_checkpoint(format_checkpoint(of_this_process(9))).error().message,
            "header 'fairway-checkpoint 1' is not 'fairway-step-checkpoint 1'");
  EXPECT_EQ(parse_step_checkpoint(good + "colour blue\n").error().message, "unknown field 'colour'");
  StepCheckpoint zero = c;
  zero.pgid = 0;
  EXPECT_EQ(parse_step_checkpoint(format_step_checkpoint(zero)).error().message,
            "field 'pgid': 0 is not positive")
      << "a group of 0 would signal the agent's own";
  TempDir dir;
  const LaunchCheckpoint store(dir.path());
  testing::write_text(store.path_of_step(JobId(4), 1), format_step_checkpoint(step_of_this_process(4, 2)));
  testing::write_text(store.path_of_step(JobId(5), 1), "garbage");
  const CheckpointScan scan = store.load_all();
  EXPECT_TRUE(scan.live_steps.empty());
  ASSERT_EQ(scan.errors.size(), 2u);
  EXPECT_NE(scan.errors[0].message.find("do not match the file name"), std::string::npos)
      << scan.errors[0].message;
  EXPECT_NE(scan.errors[1].message.find("job-5.step-1.checkpoint: header"), std::string::npos)
      << scan.errors[1].message;
}

TEST(LaunchCheckpointTest, MissingDirIsAnErrorNotACrash) {
  const LaunchCheckpoint store("/nonexistent-fairway-spool");
  const CheckpointScan scan = store.load_all();
  ASSERT_EQ(scan.errors.size(), 1u);
  EXPECT_NE(scan.errors[0].message.find("/nonexistent-fairway-spool"), std::string::npos);
  const Status s = store.save(of_this_process(1));
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("/nonexistent-fairway-spool/job-1.checkpoint.tmp"), std::string::npos);
}

}  // namespace
}  // namespace fairway::agent
