#include "client/slurm/slurm_commands.h"

#include <gtest/gtest.h>

namespace fairway::cli {
namespace {

using Args = std::vector<std::string>;

Args fairway_args(std::string_view command, const Args& args, const SlurmInvocation& inv = {"alice", {}}) {
  auto t = translate_slurm_command(command, args, inv);
  EXPECT_TRUE(t) << (t ? "" : t.error().message);
  return t ? t->fairway_args : Args{};
}

std::string error_of(std::string_view command, const Args& args) {
  auto t = translate_slurm_command(command, args, {"alice", {}});
  return t ? "translated" : t.error().message;
}

TEST(SlurmCommands, SqueueKeepsSlurmsDefaultLayoutAndSpellings) {
  EXPECT_EQ(fairway_args("squeue", {}), (Args{"queue", "--squeue-rules", "-o", "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"}));
  EXPECT_EQ(fairway_args("squeue", {"--me", "-h", "-tPD,R", "--partition=gpu"}),
            (Args{"queue", "--squeue-rules", "-u", "alice", "--noheader", "--states", "PD,R", "--partition", "gpu", "-o",
                  "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"}));
  // A layout of its own replaces the default one.
  EXPECT_EQ(fairway_args("squeue", {"-o", "%i %t", "-j", "42"}), (Args{"queue", "--squeue-rules", "--format", "%i %t", "--jobs", "42"}));
  EXPECT_EQ(fairway_args("squeue", {"-l"}), (Args{"queue", "--squeue-rules", "--long"}));
  EXPECT_EQ(fairway_args("squeue", {"-A", "physics", "-w", "cn[01-02]", "-o", "%i"}),
            (Args{"queue", "--squeue-rules", "--account", "physics", "--nodelist", "cn[01-02]", "--format", "%i"}));
  // -s has its own layout: no default -o is added.
  EXPECT_EQ(fairway_args("squeue", {"-s", "-h"}), (Args{"queue", "--squeue-rules", "--steps", "--noheader"}));
  EXPECT_EQ(error_of("squeue", {"-u"}), "option -u needs a value");
}

// Tools read Slurm's version from `sinfo --version` (Debian's: "slurm-wlm 22.05.8").
TEST(SlurmCommands, VersionIsAnsweredHereAsSlurmWordsIt) {
  for (const auto& [command, args] : std::vector<std::pair<std::string, Args>>{
           {"sinfo", {"--version"}}, {"sbatch", {"-V"}}, {"squeue", {"-V"}}, {"scontrol", {"version"}},
           {"srun", {"--version"}}, {"sacct", {"--version"}}}) {
    auto t = translate_slurm_command(command, args, {"alice", {}});
    ASSERT_TRUE(t) << command;
    EXPECT_EQ(t->local_output, "slurm-fairway 22.05.8\n") << command;
  }
  // A script's own -V is the script's.
  EXPECT_EQ(fairway_args("sbatch", {"job.sh", "-V"}), (Args{"submit", "--default-output=slurm-%j.out", "job.sh", "-V"}));
}

// squeue -O's named fields, as squeue 22.05 lays them out: 20 wide unless sized, '.'
// right-justifies, a suffix is written after the value (alone: no padding).
TEST(SlurmCommands, SqueueNamedFieldsBecomePercentFields) {
  EXPECT_EQ(fairway_args("squeue", {"-O", "JobID:8,Name:.10,State:5,Partition"}),
            (Args{"queue", "--squeue-rules", "--format", "%8i%.10j%5T%20P"}));
  EXPECT_EQ(fairway_args("squeue", {"-h", "--Format=jobid:|,NAME:|"}),
            (Args{"queue", "--squeue-rules", "--noheader", "--format", "%i|%j|"}));
  EXPECT_EQ(fairway_args("squeue", {"-O", "JobID:6,Comment:12,Nice"}),
            (Args{"queue", "--squeue-rules", "--format", "%6i%12k%20y"}));
  EXPECT_EQ(error_of("squeue", {"-O", "JobID,Bogus"}), "Invalid job format specification: Bogus");
}

// sinfo -O the same way, with sinfo's names (PartitionName: without the default's '*').
TEST(SlurmCommands, SinfoNamedFieldsBecomePercentFields) {
  EXPECT_EQ(fairway_args("sinfo", {"-O", "Partition:10,CPUs:.5,Nodes:|,StateLong"}),
            (Args{"nodes", "--format", "%10P%.5c%D|%20T"}));
  EXPECT_EQ(fairway_args("sinfo", {"-h", "-O", "PartitionName:|,NodeList"}),
            (Args{"nodes", "--noheader", "--format", "%R|%20N"}));
  EXPECT_EQ(error_of("sinfo", {"-O", "Nodes,Bogus"}), "Invalid job format specification: Bogus");
}

// "Try squeue --help" must lead somewhere: each front-end lists what it takes.
TEST(SlurmCommands, HelpListsTheOptionsEachFrontEndTakes) {
  for (const std::string command : {"squeue", "scancel", "sacct", "sinfo", "scontrol", "sacctmgr"}) {
    auto t = translate_slurm_command(command, {"--help"}, {"alice", {}});
    ASSERT_TRUE(t) << command << ": " << t.error().message;
    ASSERT_TRUE(t->local_output) << command;
    EXPECT_TRUE(t->local_output->starts_with("Usage: " + command)) << *t->local_output;
  }
  auto squeue = translate_slurm_command("squeue", {"--usage"}, {"alice", {}});
  ASSERT_TRUE(squeue && squeue->local_output);
  EXPECT_NE(squeue->local_output->find("-u, --user=VALUE"), std::string::npos) << *squeue->local_output;
  EXPECT_NE(squeue->local_output->find("--clusters=VALUE  (not supported: one cluster only)"), std::string::npos);
  // scancel --me: the caller's jobs.
  EXPECT_EQ(fairway_args("scancel", {"--me", "-t", "PD"}),
            (Args{"cancel", "--quiet-when-gone", "--state", "PD", "-u", "alice"}));
}

TEST(SlurmCommands, SbatchTakesItsInputVariablesBeforeTheCommandLine) {
  const SlurmInvocation inv{"alice", {{"SBATCH_PARTITION", "gpu"}, {"SBATCH_TIMELIMIT", "10"}, {"SBATCH_WAIT", ""},
                                      {"SLURM_JOB_ID", "7"}}};
  EXPECT_EQ(fairway_args("sbatch", {"-p", "cpu", "job.sh", "-p"}, inv),
            (Args{"submit", "--default-output=slurm-%j.out", "--partition=gpu", "--time=10", "--wait", "-p", "cpu", "job.sh", "-p"}));
  EXPECT_EQ(fairway_args("srun", {"-N2", "hostname"}), (Args{"run", "-N2", "hostname"}));
  EXPECT_EQ(fairway_args("salloc", {"-n", "4"}), (Args{"alloc", "-n", "4"}));
  // env_excl, env_gpt: the value is the option's, so sbatch judges it (SBATCH_EXCLUSIVE=1 is
  // refused as --exclusive=1 is).
  const SlurmInvocation values{"alice", {{"SBATCH_EXCLUSIVE", "1"}, {"SBATCH_GPUS_PER_TASK", "1"}, {"SBATCH_NO_REQUEUE", "1"}}};
  EXPECT_EQ(fairway_args("sbatch", {"job.sh"}, values),
            (Args{"submit", "--default-output=slurm-%j.out", "--gpus-per-task=1", "--exclusive=1", "--no-requeue", "job.sh"}));
}

TEST(SlurmCommands, ScancelAndSacctMapTheirOptions) {
  EXPECT_EQ(fairway_args("scancel", {"-f", "--jobname=x", "-s", "USR1", "42_7"}),
            (Args{"cancel", "--quiet-when-gone", "--name", "x", "--signal", "USR1", "42_7"}));
  // Slurm's scancel speaks of a job that is gone only with -v.
  EXPECT_EQ(fairway_args("scancel", {"-v", "42"}), (Args{"cancel", "42"}));
  EXPECT_EQ(fairway_args("scancel", {"-i", "42"}), (Args{"cancel", "--quiet-when-gone", "--interactive", "42"}));
  EXPECT_EQ(fairway_args("sacct", {"-X", "-j", "42", "-P", "--format=JobID,State"}),
            (Args{"history", "--live", "--sacct-table", "--jobs", "42", "--parsable2", "--format", "JobID,State"}));
  // Bundled flags, the last taking the next word (Snakemake: sacct -nu "$USER" -o Account%20).
  EXPECT_EQ(fairway_args("sacct", {"-nu", "alice", "-o", "Account%20"}),
            (Args{"history", "--live", "--sacct-table", "--batch-steps", "--noheader", "--user", "alice", "--format",
                  "Account%20"}));
}

// Options given twice, as Slurm's commands read them: list values add up, others the last
// wins; sacct's -M/--clusters names the one cluster there is (workflow engines pass "all").
TEST(SlurmCommands, RepeatedOptionsAndClusters) {
  EXPECT_EQ(fairway_args("sacct", {"-X", "-j", "1", "-j", "2", "--jobs=3"}),
            (Args{"history", "--live", "--sacct-table", "--jobs", "1,2,3"}));
  EXPECT_EQ(fairway_args("sacct", {"-X", "-S", "2026-01-01", "-S", "2026-02-01"}),
            (Args{"history", "--live", "--sacct-table", "--starttime", "2026-02-01"}));
  EXPECT_EQ(fairway_args("sacct", {"-X", "--clusters", "all", "-j", "4"}),
            (Args{"history", "--live", "--sacct-table", "--jobs", "4"}));
  EXPECT_EQ(fairway_args("sacct", {"-X", "-M", "twonode", "-j", "4"}),
            (Args{"history", "--live", "--sacct-table", "--jobs", "4"}));
  EXPECT_EQ(fairway_args("squeue", {"-u", "a", "--user=b", "-t", "R", "-t", "PD"}),
            (Args{"queue", "--squeue-rules", "--user", "a,b", "--states", "R,PD", "-o",
                  "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"}));
}

TEST(SlurmCommands, SprioAndSshareAskForSlurmsTables) {
  EXPECT_EQ(fairway_args("sprio", {"-l", "-h", "-u", "bob"}), (Args{"priority", "--long", "--noheader", "--user", "bob", "--sprio"}));
  EXPECT_EQ(error_of("sprio", {"-n"}), "--norm is not supported: fairway priority -n gives each term before its weight");
  EXPECT_EQ(fairway_args("sshare", {"-a", "-P", "-A", "science"}),
            (Args{"shares", "--all-users", "--parsable2", "--account", "science", "--sshare"}));
  EXPECT_EQ(fairway_args("sshare", {"-h"}), (Args{"shares", "--noheader", "--sshare"}));
  EXPECT_EQ(error_of("sshare", {"-l"}), "--long is not supported: the default layout only (no LevelFS or TRES minutes)");
}

TEST(SlurmCommands, ScontrolShowStepListsRunningSteps) {
  EXPECT_EQ(fairway_args("scontrol", {"show", "step", "42.0"}),
            (Args{"queue", "--steps", "--scontrol-steps", "--step-id", "42.0"}));
  EXPECT_EQ(fairway_args("scontrol", {"show", "steps"}), (Args{"queue", "--steps", "--scontrol-steps"}));
}

TEST(SlurmCommands, ScontrolWordsAreCaseInsensitive) {
  EXPECT_EQ(fairway_args("scontrol", {"-dd", "SHOW", "Job", "42"}), (Args{"show", "job", "42", "--scontrol"}));
  EXPECT_EQ(fairway_args("scontrol", {"show", "jobid", "-dd", "42"}), (Args{"show", "job", "42", "--scontrol"}));
  EXPECT_EQ(fairway_args("scontrol", {"show", "partitions"}), (Args{"show", "partition", "--scontrol"}));
  EXPECT_EQ(fairway_args("scontrol", {"show", "job"}), (Args{"show", "job", "--scontrol"}));
  EXPECT_EQ(fairway_args("scontrol", {"show", "nodes"}), (Args{"show", "node", "--scontrol"}));
  EXPECT_EQ(fairway_args("scontrol", {"update", "JobId=42", "TimeLimit=1:00:00"}),
            (Args{"update", "job", "42", "TimeLimit=1:00:00"}));
  EXPECT_EQ(fairway_args("scontrol", {"update", "NodeName=cn01", "State=DRAIN", "Reason=disk failing"}),
            (Args{"drain", "cn01", "--reason", "disk failing"}));
  EXPECT_EQ(fairway_args("scontrol", {"update", "nodename=cn01", "state=resume"}), (Args{"resume", "cn01"}));
  EXPECT_EQ(fairway_args("scontrol", {"uhold", "42"}), (Args{"hold", "42"}));
  EXPECT_EQ(error_of("scontrol", {"update", "NodeName=cn01", "State=DRAIN"}), "update node: State=drain needs a Reason=");
  EXPECT_EQ(error_of("scontrol", {"reconfigure"}), "reconfigure is not supported (show, hold, release, requeue, update)");
}

TEST(SlurmCommands, HostListsAreAnsweredHere) {
  auto t = translate_slurm_command("scontrol", {"show", "hostnames", "cn[01-03],gpu1"}, {"alice", {}});
  ASSERT_TRUE(t && t->local_output);
  EXPECT_EQ(*t->local_output, "cn01\ncn02\ncn03\ngpu1\n");
  t = translate_slurm_command("scontrol", {"show", "hostnames"}, {"alice", {{"SLURM_JOB_NODELIST", "n[7-8]"}}});
  ASSERT_TRUE(t && t->local_output);
  EXPECT_EQ(*t->local_output, "n7\nn8\n");
  t = translate_slurm_command("scontrol", {"show", "hostlist", "cn01,cn02,cn03"}, {"alice", {}});
  ASSERT_TRUE(t && t->local_output);
  EXPECT_EQ(*t->local_output, "cn[01-03]\n");
  EXPECT_EQ(error_of("scontrol", {"show", "hostnames"}), "show hostnames: no host list given and SLURM_JOB_NODELIST is not set");
  EXPECT_EQ(error_of("sfoo", {}), "'sfoo' is not a Slurm command this front-end knows");
}

}  // namespace
}  // namespace fairway::cli

namespace fairway::cli {
namespace {

TEST(SlurmCommands, SdiagAndSqueueIterateTranslateAsSlurmsOptions) {
  EXPECT_EQ(fairway_args("sdiag", {}), (Args{"diag", "--sdiag"}));
  EXPECT_EQ(fairway_args("sdiag", {"-a", "-t"}), (Args{"diag", "--sdiag"}));
  EXPECT_EQ(fairway_args("sdiag", {"--json"}), (Args{"diag", "--json"}));
  EXPECT_EQ(error_of("sdiag", {"-r"}), "--reset is not supported: the counts run from the coordinator's start");
  EXPECT_EQ(fairway_args("squeue", {"-i", "5", "-h"}), (Args{"queue", "--squeue-rules", "--iterate", "5", "--noheader", "-o",
                                                              "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"}));
  EXPECT_EQ(error_of("squeue", {"--iterate=0"}), "--iterate=0\n");
  EXPECT_EQ(error_of("squeue", {"-i", "2x"}), "--iterate=2x\n");
}

}  // namespace
}  // namespace fairway::cli
