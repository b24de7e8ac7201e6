#include "client/views/slurm/slurm_job_view.h"

#include <gtest/gtest.h>

#include "client/slurm/slurm_commands.h"

namespace fairway::cli {
namespace {

TEST(SlurmJobView, HeldBlockedAndRequeuedJobsArePendingAsSlurmHasNoOtherWord) {
  wire::JobView held;
  held.state = JobState::kHeld;
  held.reasons = {"Held"};
  held.priority = 1200;
  to_slurm_view(held);
  EXPECT_EQ(held.state, JobState::kPending);
  EXPECT_EQ(held.reasons, std::vector<std::string>{"JobHeldUser"});
  EXPECT_EQ(held.priority, 0);
  EXPECT_EQ(held.nodes, 1);  // a waiting job asks for one node at least
  wire::JobView blocked;
  blocked.state = JobState::kBlocked;
  blocked.reasons = {"QOSMaxJobsPerUserLimit"};
  blocked.nodes = 4;
  to_slurm_view(blocked);
  EXPECT_EQ(blocked.state, JobState::kPending);
  EXPECT_EQ(blocked.reasons, std::vector<std::string>{"QOSMaxJobsPerUserLimit"});
  EXPECT_EQ(blocked.nodes, 4);
  wire::JobView cancelled;
  cancelled.state = JobState::kCancelled;
  cancelled.signal = 15;
  to_slurm_view(cancelled);
  EXPECT_EQ(cancelled.exit_code, 0);
  EXPECT_EQ(cancelled.signal, 0);  // the batch step's signal, not the job's
  wire::JobView failed;
  failed.state = JobState::kFailed;
  failed.signal = 9;
  to_slurm_view(failed);
  EXPECT_EQ(failed.signal, 9);  // sacct: FAILED 0:9, as Slurm's
}

// What Slurm 22.05's scontrol showed for the same jobs (tests/conformance/over_time): an
// ended job's ExitCode is its script's, where sacct's job line says 0:0, and the Reason says
// why it ended; a job that has not ended shows no exit status of an earlier run.
TEST(SlurmJobView, ScontrolShowsTheScriptsExitAndWhyTheJobEnded) {
  wire::JobView cancelled;
  cancelled.state = JobState::kCancelled;
  cancelled.signal = 9;
  to_scontrol_view(cancelled);
  EXPECT_EQ(cancelled.signal, 9);
  EXPECT_TRUE(cancelled.reasons.empty());  // Reason=None
  wire::JobView timeout;
  timeout.state = JobState::kTimeout;
  timeout.signal = 9;
  to_scontrol_view(timeout);
  EXPECT_EQ(timeout.signal, 9);
  EXPECT_EQ(timeout.reasons, std::vector<std::string>{"TimeLimit"});
  wire::JobView failed;
  failed.state = JobState::kFailed;
  failed.exit_code = 3;
  to_scontrol_view(failed);
  EXPECT_EQ(failed.reasons, std::vector<std::string>{"NonZeroExitCode"});
  wire::JobView completed;
  completed.state = JobState::kCompleted;
  completed.exit_code = 0;
  to_scontrol_view(completed);
  EXPECT_TRUE(completed.reasons.empty());
  // sacct's job line keeps 0:0 for the cancelled one.
  wire::JobView accounted;
  accounted.state = JobState::kCancelled;
  accounted.signal = 9;
  to_slurm_view(accounted);
  EXPECT_EQ(accounted.signal, 0);
  // Requeued, running again: its first run's SIGKILL is not this run's exit status.
  for (JobState s : {JobState::kRunning, JobState::kRequeued, JobState::kCompleting, JobState::kPending}) {
    wire::JobView again;
    again.state = s;
    again.signal = 9;
    again.exit_code = 0;
    to_scontrol_view(again);
    EXPECT_FALSE(again.signal) << to_string(s);
    EXPECT_FALSE(again.exit_code) << to_string(s);
  }
}

TEST(SlurmJobView, SacctNamesWhoCancelledAJobByUid) {
  wire::JobView j;
  j.state = JobState::kCancelled;
  j.state_reason = "cancelled by nobody (uid 65534)";
  EXPECT_EQ(sacct_state_text(j), "CANCELLED by 65534");
  // A reason from before uids were recorded, or any other text: the state alone.
  for (const char* reason : {"cancelled by root", "cancelled by x (uid )", "cancelled by x (uid 12a)",
                             "cancelled by x (uid 99999999999)", "preempted", ""}) {
    j.state_reason = reason;
    EXPECT_EQ(sacct_state_text(j), "CANCELLED") << reason;
  }
  // A user named like a reason cannot give another uid: the last "(uid N)" is the coordinator's.
  j.state_reason = "cancelled by a (uid 0) (uid 1000)";
  EXPECT_EQ(sacct_state_text(j), "CANCELLED by 1000");
  j.state = JobState::kCompleted;
  EXPECT_EQ(sacct_state_text(j), "COMPLETED");
}

// sacct's ID.batch line, as Slurm 22.05 printed it for the same jobs (the golden test has
// the whole table): the script's own state and signal, where the job line says 0:0.
TEST(SlurmJobView, ABatchScriptHasALineOfItsOwnOnceItHasRun) {
  wire::JobView j;
  j.name = "run";
  j.partition = "main";
  j.start_time = Time::from_seconds(100);
  j.state = JobState::kCancelled;
  j.signal = 15;
  auto b = batch_step_view(j);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->name, "batch");
  EXPECT_EQ(b->partition, "");
  EXPECT_EQ(b->state, JobState::kCancelled);
  EXPECT_EQ(b->exit_code, 0);
  EXPECT_EQ(b->signal, 15);
  j.state = JobState::kTimeout;
  EXPECT_EQ(batch_step_view(j)->state, JobState::kCancelled);  // killed at its limit
  j.allocation = {{"cn01", {0, 1}, {}}, {"cn02", {0, 1}, {}}};
  ASSERT_EQ(batch_step_view(j)->allocation.size(), 1u) << "the script runs on the first node";
  EXPECT_EQ(batch_step_view(j)->allocation[0].node, "cn01");
  j.state = JobState::kFailed;
  j.signal.reset();
  j.exit_code = 3;
  EXPECT_EQ(batch_step_view(j)->state, JobState::kFailed);
  EXPECT_EQ(batch_step_view(j)->exit_code, 3);
  j.interactive = true;  // an allocation has no script
  EXPECT_FALSE(batch_step_view(j));
  j.interactive = false;
  j.state = JobState::kCancelled;
  j.start_time.reset();  // cancelled while it waited: it never ran
  EXPECT_FALSE(batch_step_view(j));
  j.state = JobState::kPending;
  j.start_time = Time::from_seconds(100);  // requeued: waiting again
  EXPECT_FALSE(batch_step_view(j));
}

TEST(SlurmJobView, SqueueSortsStatesInSlurmsOrder) {
  EXPECT_LT(slurm_state_rank(JobState::kHeld), slurm_state_rank(JobState::kRunning));
  EXPECT_EQ(slurm_state_rank(JobState::kCompleting), slurm_state_rank(JobState::kRunning));
  EXPECT_LT(slurm_state_rank(JobState::kRunning), slurm_state_rank(JobState::kCompleted));
  EXPECT_LT(slurm_state_rank(JobState::kCancelled), slurm_state_rank(JobState::kFailed));
}

// What Slurm 22.05's commands print for an option they do not have (captured on the anchor).
TEST(SlurmJobView, UnknownOptionsAreRefusedInGetoptsWords) {
  auto e = slurm_usage_error("sbatch", "unknown option \"--no-such-option\"");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->text,
            "sbatch: unrecognized option '--no-such-option'\nTry \"sbatch --help\" for more information\n");
  EXPECT_EQ(e->exit_code, 255);
  e = slurm_usage_error("squeue", "invalid option -- 'Z'");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->text, "squeue: invalid option -- 'Z'\nTry \"squeue --help\" for more information\n");
  EXPECT_EQ(e->exit_code, 1);
  e = slurm_usage_error("salloc", "unknown option \"-Z\"");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->text, "salloc: invalid option -- 'Z'\nTry \"salloc --help\" for more information\n");
  e = slurm_usage_error("sacct", "unrecognized option '--x'");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->text, "sacct: unrecognized option '--x'\n");  // sacct adds no "Try" line
  EXPECT_FALSE(slurm_usage_error("sbatch", "--time: \"x\" is not a time"));
  EXPECT_FALSE(slurm_usage_error("sbatch", "unknown option \"\""));
}

}  // namespace
}  // namespace fairway::cli
