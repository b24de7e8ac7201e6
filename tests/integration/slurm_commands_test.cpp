// Slurm's own commands on a loopback Fairway cluster, through the links a site would put
// first on PATH: sbatch (with SBATCH_* variables and --wait on an array), srun inside the
// batch job, squeue, scontrol, scancel, sacct, and Slurm's "CMD: error:" lines.
#include <gtest/gtest.h>

#include <regex>

#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cluster_fixture.h"

namespace fairway::integration {
namespace {

class SlurmCommands : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "runs the commands as another user, which needs root";
    start_coordinator();
    start_agent("kb01", kebnekaise_xml());
    start_agent("kb02", kebnekaise_xml());
    ASSERT_TRUE(wait_nodes_up(2));
  }
  // `command` (sbatch, squeue, ...; or a program by its absolute path) as nobody, in the
  // test's directory, with the links first on PATH.
  int slurm(const std::string& command, const std::vector<std::string>& args, std::string& out,
            std::vector<std::string> env = {}) {
    const std::string bin = std::string(FAIRWAY_SLURM_BIN_DIR);
    env.push_back("FAIRWAY_COORDINATOR=" + clients_ep_);
    env.push_back("PATH=" + bin + ":/usr/bin:/bin");
    env.push_back("USER=nobody");
    const std::string program = command.starts_with("/") ? command : bin + "/" + command;
    std::vector<std::string> argv = {command.substr(command.rfind('/') + 1)};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_as({"nobody", program, argv, env, true, dir_}, out);
  }
};

// squeue -i N: the listing again every N seconds, each under the date it was taken and
// followed by a blank line, as Slurm's prints it, until interrupted.
TEST_F(SlurmCommands, SqueueIterateListsAgainUnderEachDate) {
  const std::string bin = std::string(FAIRWAY_SLURM_BIN_DIR);
  const std::string out_path = dir_ + "/iterate.out";
  const pid_t pid =
      start_as({"nobody",
                bin + "/squeue",
                {"squeue", "-i", "1", "-o", "%i %t"},
                {"FAIRWAY_COORDINATOR=" + clients_ep_, "PATH=" + bin + ":/usr/bin:/bin", "USER=nobody"},
                false,
                dir_},
               out_path);
  const std::regex date(R"([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\nJOBID ST\n\n)");
  const auto listings = [&] {
    const std::string text = read_file(out_path);
    return std::distance(std::sregex_iterator(text.begin(), text.end(), date), std::sregex_iterator());
  };
  const bool twice = eventually([&] { return listings() >= 2; }, 10000ms);
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(twice) << read_file(out_path);
  // Nothing but whole listings: each date, the header, the (empty) queue, a blank line.
  const std::string text = read_file(out_path);
  EXPECT_EQ(std::regex_replace(text, date, ""), "") << text;
  std::string out;
  EXPECT_EQ(slurm("squeue", {"-i", "0"}, out), 1) << out;
  EXPECT_EQ(out, "squeue: error: --iterate=0\n\n");
  EXPECT_EQ(slurm("squeue", {"--iterate=x"}, out), 1) << out;
  EXPECT_EQ(out, "squeue: error: --iterate=x\n\n");
}

// scancel -i asks, as Slurm's does, and cancels only on yes.
TEST_F(SlurmCommands, ScancelInteractiveAsksFirst) {
  std::string out;
  ASSERT_EQ(slurm("sbatch", {"--parsable", "-J", "asked", "--wrap", "sleep 300"}, out), 0) << out;
  const JobId id(std::stoull(out));
  ASSERT_TRUE(wait_state(id, [](JobState s) { return s == JobState::kRunning; }));
  const std::string bin = std::string(FAIRWAY_SLURM_BIN_DIR);
  const auto ask = [&](const std::string& answer) {
    std::ofstream(dir_ + "/answer") << answer << "\n";
    const pid_t pid =
        start_as({"nobody",
                  bin + "/scancel",
                  {"scancel", "-i", std::to_string(id.value())},
                  {"FAIRWAY_COORDINATOR=" + clients_ep_, "PATH=" + bin + ":/usr/bin:/bin", "USER=nobody"},
                  false,
                  dir_},
                 dir_ + "/asked.out", dir_ + "/answer");
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(ask("n"), 0);
  const auto partition = job(id)->partition;
  EXPECT_EQ(read_file(dir_ + "/asked.out"), "Cancel job_id=" + std::to_string(id.value()) +
                                                " name=asked partition=" + partition + " [y/n]? ");
  EXPECT_EQ(job(id)->state, JobState::kRunning);
  EXPECT_EQ(ask("y"), 0);
  EXPECT_TRUE(wait_state(id, [](JobState s) { return s == JobState::kCancelled; }));
}

// sdiag in Slurm's layout from a live coordinator: what exporters parse (the job counts,
// the cycle times) under Slurm's labels, the submission just made counted.
TEST_F(SlurmCommands, SdiagCountsWhatTheCoordinatorDid) {
  std::string out;
  ASSERT_EQ(slurm("sbatch", {"--parsable", "--wrap", "true"}, out), 0) << out;
  ASSERT_TRUE(wait_state(JobId(std::stoull(out)), [](JobState s) { return is_terminal(s); }));
  ASSERT_EQ(slurm("sdiag", {}, out), 0) << out;
  EXPECT_TRUE(out.starts_with("*******************************************************\nsdiag output at "))
      << out;
  for (const char* line :
       {"\nJobs submitted: 1\n", "\nJobs completed: 1\n", "\nJobs running:   0\n",
        "Main schedule statistics (microseconds):\n\tLast cycle:   ",
        "\tTotal backfilled jobs (since last slurm start): 0\n",
        "\n\tSubmitRequest                           (    8) count:1      ave_time:0      total_time:0\n"}) {
    EXPECT_NE(out.find(line), std::string::npos) << line << " in:\n" << out;
  }
  EXPECT_EQ(slurm("sdiag", {"-r"}, out), 1) << out;
}

TEST_F(SlurmCommands, AScriptWrittenForSlurmRunsThroughSlurmsCommands) {
  std::string out;
  // srun inside sbatch's job, on both nodes; SBATCH_JOB_NAME names the job.
  ASSERT_EQ(slurm("sbatch",
                  {"--parsable", "-N", "2", "-n", "2", "-o", "two-%j.out", "--wrap",
                   "srun -l printenv SLURMD_NODENAME"},
                  out, {"SBATCH_JOB_NAME=fromenv"}),
            0)
      << out;
  const JobId both(std::stoull(out));
  auto v = wait_state(both, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->name, "fromenv");
  const std::string printed = read_file(dir_ + "/two-" + std::to_string(both.value()) + ".out");
  EXPECT_EQ(v->state, JobState::kCompleted) << printed;
  EXPECT_NE(printed.find("0: kb0"), std::string::npos) << printed;
  EXPECT_NE(printed.find("1: kb0"), std::string::npos) << printed;

  ASSERT_EQ(slurm("sbatch", {"--wrap", "sleep 300"}, out), 0) << out;
  ASSERT_TRUE(out.starts_with("Submitted batch job ")) << out;
  const std::string id = out.substr(20, out.find('\n') - 20);
  ASSERT_TRUE(wait_state(JobId(std::stoull(id)), [](JobState s) { return s == JobState::kRunning; }));
  ASSERT_EQ(slurm("squeue", {}, out), 0) << out;
  EXPECT_TRUE(out.starts_with(
      "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n"))
      << out;
  ASSERT_EQ(slurm("squeue", {"--me", "-h", "-o", "%i %t"}, out), 0) << out;
  EXPECT_EQ(out, id + " R\n");
  ASSERT_EQ(slurm("scontrol", {"show", "job", id}, out), 0) << out;
  EXPECT_NE(out.find(id), std::string::npos) << out;
  ASSERT_EQ(slurm("scancel", {id}, out), 0) << out;
  ASSERT_TRUE(wait_state(JobId(std::stoull(id)), [](JobState s) { return is_terminal(s); }));
  ASSERT_EQ(slurm("sacct", {"-j", id, "-P", "-o", "JobID,State"}, out), 0) << out;
  EXPECT_NE(out.find(id + "|CANCELLED"), std::string::npos) << out;
}

// scontrol show job without an id lists the jobs that ended in the last MinJobAge seconds
// too, as Slurm's does; sacct takes -j twice and --clusters all, as workflow engines pass them.
TEST_F(SlurmCommands, RecentlyEndedJobsAreStillShownAndRepeatedOptionsAddUp) {
  std::string out;
  ASSERT_EQ(slurm("sbatch", {"--parsable", "--wrap", "true"}, out), 0) << out;
  const std::string first = out.substr(0, out.find('\n'));
  ASSERT_EQ(slurm("sbatch", {"--parsable", "--wrap", "true"}, out), 0) << out;
  const std::string second = out.substr(0, out.find('\n'));
  ASSERT_TRUE(wait_state(JobId(std::stoull(second)), [](JobState s) { return is_terminal(s); }));
  ASSERT_TRUE(wait_state(JobId(std::stoull(first)), [](JobState s) { return is_terminal(s); }));
  ASSERT_EQ(slurm("scontrol", {"show", "job"}, out), 0) << out;
  EXPECT_NE(out.find("JobId=" + first + " "), std::string::npos) << out;
  EXPECT_NE(out.find("JobId=" + second + " "), std::string::npos) << out;
  EXPECT_NE(out.find("JobState=COMPLETED"), std::string::npos) << out;
  ASSERT_EQ(
      slurm("sacct", {"-X", "-n", "-P", "-o", "JobID", "--clusters", "all", "-j", first, "-j", second}, out),
      0)
      << out;
  EXPECT_EQ(out, first + "\n" + second + "\n");
}

// A sweep written for Slurm, as a site's documentation writes one, submitted unchanged with
// sbatch: an array of two-node jobs whose srun runs on both nodes, node selection, memory,
// output names per task, tuning knobs Fairway ignores; sbatch --test-only plans it without
// queueing it, and a job with afterok on the whole array runs after its last task.
TEST_F(SlurmCommands, ASiteArrayScriptWithStepsRunsUnchanged) {
  std::ofstream(dir_ + "/sweep.sh") << R"(#!/bin/bash
#SBATCH -J sweep
#SBATCH --array=1-3%2
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=2
#SBATCH --time=00:05:00
#SBATCH --mem-per-cpu=100M
#SBATCH -w kb[01-02]
#SBATCH --output=sweep-%A_%a.out
#SBATCH --error=sweep-%A_%a.err
#SBATCH --open-mode=append
#SBATCH --hint=nomultithread
#SBATCH --mail-type=NONE

echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT in $SLURM_ARRAY_JOB_ID on $SLURM_JOB_NUM_NODES nodes"
srun printenv SLURMD_NODENAME | sort
)";
  std::string out;
  ASSERT_EQ(slurm("sbatch", {"--test-only", "sweep.sh"}, out), 0) << out;
  EXPECT_NE(out.find(" to start at "), std::string::npos) << out;
  EXPECT_TRUE(out.find(" on nodes kb01,kb02 ") != std::string::npos ||
              out.find(" on nodes kb02,kb01 ") != std::string::npos)
      << out;
  ASSERT_EQ(slurm("squeue", {"-h"}, out), 0) << out;
  EXPECT_EQ(out, "");  // --test-only queued nothing

  ASSERT_EQ(slurm("sbatch", {"--parsable", "sweep.sh"}, out), 0) << out;
  const std::string array = out.substr(0, out.find('\n'));
  ASSERT_EQ(slurm("sbatch",
                  {"--parsable", "-d", "afterok:" + array, "-o", "after.out", "--wrap", "echo after"}, out),
            0)
      << out;
  const JobId after(std::stoull(out));
  auto v = wait_state(after, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted);
  for (int task = 1; task <= 3; ++task) {
    const std::string name = dir_ + "/sweep-" + array + "_" + std::to_string(task) + ".out";
    EXPECT_EQ(read_file(name),
              "task " + std::to_string(task) + " of 3 in " + array + " on 2 nodes\nkb01\nkb02\n")
        << name << "\n"
        << read_file(dir_ + "/sweep-" + array + "_" + std::to_string(task) + ".err");
  }
  ASSERT_EQ(slurm("sacct", {"-X", "-n", "-P", "-j", array, "-o", "JobID,State"}, out), 0) << out;
  EXPECT_EQ(out, array + "_1|COMPLETED\n" + array + "_2|COMPLETED\n" + array + "_3|COMPLETED\n");
}

TEST_F(SlurmCommands, ArraysWaitAndErrorsAsSlurmWritesThem) {
  std::string out;
  EXPECT_EQ(slurm("sbatch", {"--wait", "--array=0-2", "--wrap", "exit $SLURM_ARRAY_TASK_ID"}, out), 2) << out;
  EXPECT_NE(out.find("sbatch: job "), std::string::npos) << out;
  EXPECT_EQ(slurm("scontrol", {"show", "hostnames", "kb[01-02],gpu7"}, out), 0) << out;
  EXPECT_EQ(out, "kb01\nkb02\ngpu7\n");
  EXPECT_EQ(slurm("squeue", {"-M", "other"}, out), 1) << out;
  EXPECT_EQ(out, "squeue: error: --clusters is not supported: one cluster only\n");
  // As Slurm 22.05's: a job that does not exist is no error, unless -v asks to hear of it.
  EXPECT_EQ(slurm("scancel", {"999999"}, out), 0) << out;
  EXPECT_EQ(out, "");
  EXPECT_EQ(slurm("scancel", {"-v", "999999"}, out), 1) << out;
  EXPECT_TRUE(out.starts_with("scancel: error: ")) << out;
  // An option Slurm's command does not have: getopt's words and Slurm's exit codes.
  EXPECT_EQ(slurm("squeue", {"--bogus"}, out), 1) << out;
  EXPECT_EQ(out, "squeue: unrecognized option '--bogus'\nTry \"squeue --help\" for more information\n");
  EXPECT_EQ(slurm("sacct", {"-Z"}, out), 1) << out;
  EXPECT_EQ(out, "sacct: invalid option -- 'Z'\n");
  EXPECT_EQ(slurm("srun", {"--bogus", "true"}, out), 255) << out;
  EXPECT_EQ(out, "srun: unrecognized option '--bogus'\nTry \"srun --help\" for more information\n");
}

// What Snakemake 7.21's --slurm executor runs and how it reads the answers
// (snakemake/executors/slurm/slurm_submit.py): a default partition marked '*' in sinfo -o
// %P, an account guessed from sacct -nu, the job id as sbatch's last word, the state from
// sacct -P -n --format=JobIdRaw,State -j ID while it runs and once it has ended.
TEST_F(SlurmCommands, SnakemakesCommandsGetTheAnswersItParses) {
  std::string out;
  ASSERT_EQ(slurm("sinfo", {"-o", "%P"}, out), 0) << out;
  EXPECT_EQ(out, "PARTITION\nbatch*\n");
  ASSERT_EQ(slurm("sacct", {"-nu", "nobody", "-o", "Account%20"}, out), 0) << out;
  ASSERT_EQ(slurm("sbatch",
                  {"-J", "rule_a", "-o", "a-%j.log", "--export=ALL", "-p", "batch", "-t", "5", "--mem", "100",
                   "--cpus-per-task=2", "-D", dir_, "--wrap=sleep 2; echo done"},
                  out),
            0)
      << out;
  const std::string id = out.substr(out.rfind(' ') + 1, out.find('\n') - out.rfind(' ') - 1);
  ASSERT_TRUE(wait_state(JobId(std::stoull(id)), [](JobState s) { return s == JobState::kRunning; }));
  // As Slurm's: the batch script's line too, which Snakemake's parse (a dict keyed by
  // JobIdRaw, looked up by the job id) passes over.
  ASSERT_EQ(slurm("sacct", {"-P", "-n", "--format=JobIdRaw,State", "-j", id}, out), 0) << out;
  EXPECT_EQ(out, id + "|RUNNING\n" + id + ".batch|RUNNING\n");
  ASSERT_TRUE(wait_state(JobId(std::stoull(id)), [](JobState s) { return is_terminal(s); }));
  ASSERT_EQ(slurm("sacct", {"-P", "-n", "--format=JobIdRaw,State", "-j", id}, out), 0) << out;
  EXPECT_EQ(out, id + "|COMPLETED\n" + id + ".batch|COMPLETED\n");
  EXPECT_EQ(read_file(dir_ + "/a-" + id + ".log"), "done\n");
  // Its account guess now finds the job's account, and sacctmgr confirms it is one of
  // the user's (the check it makes when a rule names an account).
  ASSERT_EQ(slurm("sacct", {"-nu", "nobody", "-o", "Account%20"}, out), 0) << out;
  // As Snakemake reads it: the first line, stripped.
  std::string account = out.substr(0, out.find('\n'));
  account.erase(0, account.find_first_not_of(' '));
  account.erase(account.find_last_not_of(' ') + 1);
  EXPECT_FALSE(account.empty()) << out;
  ASSERT_EQ(slurm("sacctmgr", {"-n", "-s", "list", "user", "nobody", "format=account%20"}, out), 0) << out;
  // Snakemake strips each line (sacctmgr ends every field with a blank, as Slurm's does).
  EXPECT_NE(out.find(" " + account + " \n"), std::string::npos) << "account '" << account << "' in:\n" << out;
}

// Snakemake itself, where Debian's snakemake is installed (scripts/test installs it): the
// issue's workflow through its --slurm executor, unchanged: a scatter over 4 samples, a
// rule with threads, mem_mb and runtime, one that fails once and is retried, a gather.
TEST_F(SlurmCommands, SnakemakeRunsAWorkflowUnchanged) {
  if (::access("/usr/bin/snakemake", X_OK) != 0) GTEST_SKIP() << "snakemake is not installed here";
  const std::string wf = dir_ + "/wf";
  std::filesystem::create_directories(wf);
  std::filesystem::permissions(wf, std::filesystem::perms::all);
  std::ofstream(wf + "/Snakefile")
      << "SAMPLES = ['a', 'b', 'c', 'd']\n"
      << "rule all:\n    input: 'out/summary.txt'\n"
      << "rule align:\n    output: 'out/{s}.txt'\n    threads: 2\n    resources: mem_mb=100, runtime=5\n"
      << "    shell: 'echo {wildcards.s} on $SLURMD_NODENAME with $SLURM_CPUS_PER_TASK cpus > {output}'\n"
      << "rule flaky:\n    input: 'out/a.txt'\n    output: 'out/flaky.txt'\n    retries: 1\n"
      << "    shell: 'if [ ! -e out/failed-once ]; then touch out/failed-once; exit 1; fi; echo second try > "
         "{output}'\n"
      << "rule summary:\n    input: expand('out/{s}.txt', s=SAMPLES), 'out/flaky.txt'\n"
      << "    output: 'out/summary.txt'\n    resources: runtime=5\n"
      << "    shell: 'cat {input} > {output}'\n";
  std::string out;
  // Snakemake 7.21 asks sacct once every 33 s on Slurm (any rate above 1/s becomes that);
  // the test asks once a second.
  const int rc = slurm(
      "/usr/bin/snakemake",
      {"--slurm", "--jobs", "4", "--max-status-checks-per-second", "1", "-d", wf, "-s", wf + "/Snakefile"},
      out, {"HOME=" + dir_});
  EXPECT_EQ(rc, 0) << out;
  const std::string summary = read_file(wf + "/out/summary.txt");
  for (const char* s : {"a", "b", "c", "d"}) {
    EXPECT_NE(summary.find(std::string(s) + " on kb0"), std::string::npos) << s << "\n" << summary << out;
  }
  EXPECT_NE(summary.find("with 2 cpus"), std::string::npos) << summary;
  EXPECT_NE(summary.find("second try"), std::string::npos) << summary << out;
  EXPECT_TRUE(std::filesystem::exists(wf + "/out/failed-once")) << "the flaky rule ran twice";
}

}  // namespace
}  // namespace fairway::integration
