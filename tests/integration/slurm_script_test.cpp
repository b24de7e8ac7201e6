// A Slurm user's batch script, unchanged, through the real CLI, coordinator and agent:
// directives Fairway does not act on yet are warned about, not refused; SLURM_* variables
// and output names are sbatch's; --dependency orders jobs and --kill-on-invalid-dep ends
// the ones that can never run.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <thread>

#include <unistd.h>

#include "cluster_fixture.h"

namespace fairway::integration {
namespace {

bool terminal(JobState s) {
  return is_terminal(s);
}

// --parsable prints the id last, after any warnings on stderr.
std::string last_line(const std::string& out) {
  const auto end = out.find_last_not_of('\n');
  const auto start = out.rfind('\n', end);
  return out.substr(start == std::string::npos ? 0 : start + 1,
                    end - (start == std::string::npos ? 0 : start + 1) + 1);
}

std::string line_of(const std::string& text, const std::string& prefix) {
  const auto at = text.find("\n" + prefix);
  if (at == std::string::npos) return "<missing>";
  const auto end = text.find('\n', at + 1);
  return text.substr(at + 1 + prefix.size(), end - at - 1 - prefix.size());
}

TEST_F(Cluster, ASlurmScriptRunsUnchangedAndDependenciesOrderJobs) {
  if (geteuid() != 0) GTEST_SKIP() << "runs the CLI as nobody, which needs root";
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const std::string script = dir_ + "/equil.sh";
  std::ofstream(script) << R"(#!/bin/bash
#SBATCH --job-name=equil
#SBATCH --ntasks=2
#SBATCH --cpus-per-task=2
#SBATCH --time=00:10:00
#SBATCH --mem-per-cpu=500M
#SBATCH --tmp=1G
#SBATCH --output=%x-%j.out
#SBATCH --comment="step 1"
#SBATCH --a-directive-from-the-future
echo
env | grep -E '^SLURM_(NTASKS|NPROCS|CPUS_PER_TASK|TASKS_PER_NODE|JOB_CPUS_PER_NODE|PROCID|JOB_NAME|SUBMIT_HOST)=' | sort
sleep 1
)";
  std::string out;
  ASSERT_EQ(run_cli_as("nobody", {"submit", "--parsable", "-D", dir_, script}, out), 0) << out;
  EXPECT_NE(out.find("warning: " + script + " line 7: --tmp=1G ignored"), std::string::npos) << out;
  EXPECT_NE(out.find("warning: " + script +
                     " line 10: unknown directive \"--a-directive-from-the-future\" ignored"),
            std::string::npos)
      << out;
  const std::string first_id = last_line(out);
  const JobId first(std::stoull(first_id));

  // The second waits for the first to succeed, however idle the node is.
  ASSERT_EQ(run_cli_as("nobody",
                       {"submit", "--parsable", "-D", dir_, "--dependency=afterok:" + first_id, "--wrap",
                        "echo second"},
                       out),
            0)
      << out;
  const JobId second(std::stoull(out));
  // While the first runs (it sleeps a second), a pass gives the second its reason.
  std::optional<wire::JobView> pending;
  EXPECT_TRUE(eventually([&] {
    pending = job(second);
    return pending && (pending->state != JobState::kPending || !pending->reasons.empty());
  }));
  ASSERT_TRUE(pending);
  if (pending->state == JobState::kPending) {
    EXPECT_EQ(pending->reasons, std::vector<std::string>{"Dependency"});
  }

  auto a = wait_state(first, terminal);
  auto b = wait_state(second, terminal);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->state, JobState::kCompleted);
  EXPECT_EQ(b->state, JobState::kCompleted);
  ASSERT_TRUE(a->end_time && b->start_time);
  EXPECT_GE(*b->start_time, *a->end_time);

  const std::string output = read_file(dir_ + "/equil-" + first_id + ".out");
  EXPECT_EQ(line_of(output, "SLURM_NTASKS="), "2") << output;
  EXPECT_EQ(line_of(output, "SLURM_NPROCS="), "2");
  EXPECT_EQ(line_of(output, "SLURM_CPUS_PER_TASK="), "2");
  EXPECT_EQ(line_of(output, "SLURM_TASKS_PER_NODE="), "2");
  EXPECT_EQ(line_of(output, "SLURM_JOB_CPUS_PER_NODE="), "4");
  EXPECT_EQ(line_of(output, "SLURM_PROCID="), "0");
  EXPECT_EQ(line_of(output, "SLURM_JOB_NAME="), "equil");
  EXPECT_NE(line_of(output, "SLURM_SUBMIT_HOST="), "<missing>");

  // afterok on a job that failed: pending with the reason, or cancelled when asked.
  ASSERT_EQ(run_cli_as("nobody", {"submit", "--parsable", "-D", dir_, "--wrap", "exit 4"}, out), 0) << out;
  const std::string failing = out.substr(0, out.find('\n'));
  ASSERT_TRUE(wait_state(JobId(std::stoull(failing)), terminal));
  ASSERT_EQ(
      run_cli_as("nobody", {"submit", "--parsable", "-D", dir_, "-d", "afterok:" + failing, "--wrap", "true"},
                 out),
      0)
      << out;
  const JobId stuck(std::stoull(out));
  ASSERT_EQ(run_cli_as("nobody",
                       {"submit", "--parsable", "-D", dir_, "-d", "afterok:" + failing,
                        "--kill-on-invalid-dep=yes", "--wrap", "true"},
                       out),
            0)
      << out;
  const JobId killed(std::stoull(out));
  auto k = wait_state(killed, terminal);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->state, JobState::kCancelled);
  EXPECT_NE(k->state_reason.find("never be satisfied"), std::string::npos) << k->state_reason;
  auto s = job(stuck);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->state, JobState::kPending);
  EXPECT_EQ(s->reasons, std::vector<std::string>{"DependencyNeverSatisfied"});

  // Accounting: what ended, from the store (sacct-like), filtered by state.
  ASSERT_EQ(run_cli_as("nobody", {"history", "-P", "-j", first_id + "," + failing}, out), 0) << out;
  EXPECT_NE(out.find("\n" + first_id + "|equil|nobody|"), std::string::npos) << out;
  EXPECT_NE(out.find("|COMPLETED|0:0|"), std::string::npos) << out;
  EXPECT_NE(out.find("\n" + failing + "|wrap|nobody|"), std::string::npos) << out;
  EXPECT_NE(out.find("|FAILED|4:0|"), std::string::npos) << out;
  ASSERT_EQ(run_cli_as("nobody", {"history", "-P", "-s", "F"}, out), 0) << out;
  EXPECT_EQ(out.find("|COMPLETED|"), std::string::npos) << out;
  EXPECT_NE(out.find("|FAILED|4:0|"), std::string::npos) << out;

  // --signal=B:USR1@58: the batch script hears USR1 58 seconds before its 1-minute limit
  // (limits are whole minutes, as Slurm's) and can wrap up (here: it exits 0, so the job
  // completes instead of timing out).
  ASSERT_EQ(run_cli_as("nobody",
                       {"submit", "--parsable", "-D", dir_, "-t", "1", "--signal=B:USR1@58", "--wrap",
                        "trap 'echo warned > " + dir_ +
                            "/warned; exit 0' USR1; "
                            "sleep 20 & wait"},
                       out),
            0)
      << out;
  auto warned = wait_state(JobId(std::stoull(out)), terminal, 20000ms);
  ASSERT_TRUE(warned);
  EXPECT_EQ(warned->state, JobState::kCompleted) << warned->state_reason;
  EXPECT_EQ(read_file(dir_ + "/warned"), "warned\n");
  ASSERT_TRUE(warned->start_time && warned->end_time);
  EXPECT_LT((*warned->end_time - *warned->start_time).count(), 5);

  // --wait returns when the job ends, with its exit code.
  EXPECT_EQ(run_cli_as("nobody", {"submit", "-W", "-D", dir_, "--wrap", "sleep 0.3; exit 5"}, out), 5) << out;
  EXPECT_NE(out.find("ended FAILED (exit code 5)"), std::string::npos) << out;
  EXPECT_EQ(run_cli_as("nobody", {"submit", "--wait", "-D", dir_, "--wrap", "true"}, out), 0) << out;

  // A dependency on a job that never existed, and a negative nice from a user, are refused.
  EXPECT_EQ(run_cli_as("nobody", {"submit", "-D", dir_, "-d", "afterany:999999", "--wrap", "true"}, out), 1);
  EXPECT_NE(out.find("--dependency names job 999999, which does not exist"), std::string::npos) << out;
  EXPECT_EQ(run_cli_as("nobody", {"submit", "-D", dir_, "--nice=-100", "--wrap", "true"}, out), 1);
  EXPECT_NE(out.find("only root and the admin group may give a negative nice"), std::string::npos) << out;
}

TEST_F(Cluster, NodelistExcludeAndExclusivePlaceJobsWhereAsked) {
  if (geteuid() != 0) GTEST_SKIP() << "runs the CLI as nobody, which needs root";
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  start_agent("kb02", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(2));
  std::string out;
  const auto ran_on = [&](const std::vector<std::string>& options) -> std::string {
    std::vector<std::string> args = {"submit", "--parsable", "-D", dir_};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"--wrap", "true"});
    if (run_cli_as("nobody", args, out) != 0) return "refused: " + out;
    auto v = wait_state(JobId(std::stoull(out)), terminal);
    if (!v || v->allocation.empty()) return "-";
    return v->allocation[0].node + ":" + std::to_string(v->allocation[0].cores.size());
  };
  EXPECT_EQ(ran_on({"-w", "kb02"}), "kb02:1");
  EXPECT_EQ(ran_on({"-x", "kb0[2]"}), "kb01:1");
  EXPECT_EQ(ran_on({"--exclusive", "-w", "kb01"}), "kb01:28");
  EXPECT_NE(ran_on({"-w", "kb07"}).find("node 'kb07' is not in partition"), std::string::npos) << out;
}

}  // namespace
}  // namespace fairway::integration

namespace fairway::integration {
namespace {

// The mails the fake sendmail kept in `dir` (one file each).
std::vector<std::string> mails_in(const std::string& dir) {
  std::vector<std::string> mails;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().filename().string().starts_with("mail.")) mails.push_back(read_file(e.path().string()));
  }
  std::sort(mails.begin(), mails.end());
  return mails;
}

// A cluster whose coordinator mails through a script that keeps each message in a file
// (mails_in) and refuses to run unless called as sendmail -t -oi.
class JobMail : public Cluster {
 protected:
  // True once the node is up.
  bool start_with_fake_sendmail() {
    const std::string program = dir_ + "/fake-sendmail";
    std::ofstream(program) << "#!/bin/sh\n[ \"$1 $2\" = \"-t -oi\" ] || exit 3\ncat > " << dir_
                           << "/mail.$$\n";
    std::filesystem::permissions(program, std::filesystem::perms(0755));
    coordinator_extra_ = "mail_program = \"" + program + "\"\n";
    write_config("");
    start_coordinator();
    start_agent("kb01", kebnekaise_xml());
    return wait_nodes_up(1);
  }
};

// --mail-type: the coordinator hands a message to the configured sendmail-compatible
// program (here a script that keeps it) at the events asked for, and to no one else.
TEST_F(JobMail, GoesToTheMailProgramAtTheEventsAskedFor) {
  if (geteuid() != 0) GTEST_SKIP() << "runs the CLI as nobody, which needs root";
  ASSERT_TRUE(start_with_fake_sendmail());
  std::string out;
  ASSERT_EQ(run_cli_as("nobody",
                       {"submit", "--parsable", "-D", dir_, "-J", "evil\nBcc: x@y", "--mail-type=BEGIN,FAIL",
                        "--mail-user=ann@example.org", "--wrap", "exit 2"},
                       out),
            0)
      << out;
  const std::string id = out.substr(0, out.find('\n'));
  ASSERT_TRUE(wait_state(JobId(std::stoull(id)), [](JobState s) { return is_terminal(s); }));
  ASSERT_EQ(run_cli_as("nobody", {"submit", "--parsable", "-D", dir_, "--wrap", "true"}, out), 0) << out;
  ASSERT_TRUE(wait_state(JobId(std::stoull(out)), [](JobState s) { return is_terminal(s); }));
  std::vector<std::string> mails;
  ASSERT_TRUE(eventually([&] {
    mails = mails_in(dir_);
    return mails.size() >= 2;
  }));
  ASSERT_EQ(mails.size(), 2u);  // the job that asked for none sent none
  std::string all = mails[0] + mails[1];
  EXPECT_NE(all.find("To: ann@example.org\n"), std::string::npos) << all;
  EXPECT_NE(all.find("Subject: Fairway Job_id=" + id + " Name=evil Bcc: x@y Began\n"), std::string::npos)
      << all;
  EXPECT_NE(all.find("Subject: Fairway Job_id=" + id + " Name=evil Bcc: x@y Failed, Run time"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("FAILED, ExitCode 2\n"), std::string::npos) << all;
  EXPECT_EQ(all.find("\nBcc:"), std::string::npos) << all;  // the name could not add a header
}

// An array mails as one job (Slurm without ARRAY_TASKS): BEGIN when its first task starts,
// FAIL (or END) once its last task ends, never one mail per task.
TEST_F(JobMail, AnArrayMailsOnceAtItsStartAndOnceAtItsEnd) {
  if (geteuid() != 0) GTEST_SKIP() << "runs the CLI as nobody, which needs root";
  ASSERT_TRUE(start_with_fake_sendmail());
  std::string out;
  ASSERT_EQ(run_cli_as("nobody",
                       {"submit", "--parsable", "-D", dir_, "-J", "sweep", "--array=0-9", "--mail-type=ALL",
                        "--wrap", "test $SLURM_ARRAY_TASK_ID != 3"},
                       out),
            0)
      << out;
  const std::uint64_t id = std::stoull(out);
  for (std::uint64_t task = 1; task <= 10; ++task) {
    ASSERT_TRUE(wait_state(JobId(id + task), [](JobState s) { return is_terminal(s); })) << "task " << task;
  }
  std::vector<std::string> mails;
  ASSERT_TRUE(eventually([&] {
    mails = mails_in(dir_);
    return mails.size() >= 2;
  }));
  ASSERT_EQ(mails.size(), 2u);
  const std::string all = mails[0] + mails[1];
  const std::string name =
      "Fairway Array Job_id=" + std::to_string(id) + "_* (" + std::to_string(id) + ") Name=sweep ";
  EXPECT_NE(all.find("Subject: " + name + "Began\n"), std::string::npos) << all;
  EXPECT_NE(all.find("Subject: " + name + "Failed, FAILED\n"), std::string::npos) << all;
}

// --mail-type=TIME_LIMIT_50,TIME_LIMIT_80: one mail when a running job passes half its
// limit, none for the share it never reached. (END too: its mail, sent once the job has
// ended, is the event after which no time-limit mail can come.)
TEST_F(JobMail, TimeLimitMailsComeAsTheJobPassesSharesOfItsLimit) {
  if (geteuid() != 0) GTEST_SKIP() << "runs the CLI as nobody, which needs root";
  ASSERT_TRUE(start_with_fake_sendmail());
  std::string out;
  // Limits are whole minutes (as Slurm's): 50 % is at 30 s, 80 % (48 s) is never reached.
  ASSERT_EQ(run_cli_as("nobody",
                       {"submit", "--parsable", "-D", dir_, "-t", "1", "-J", "half",
                        "--mail-type=TIME_LIMIT_50,TIME_LIMIT_80,END", "--wrap", "sleep 33"},
                       out),
            0)
      << out;
  const std::string id = out.substr(0, out.find('\n'));
  ASSERT_TRUE(wait_state(
      JobId(std::stoull(id)), [](JobState s) { return is_terminal(s); }, 60000ms));
  const auto has = [](const std::vector<std::string>& mails, const std::string& what) {
    return std::any_of(mails.begin(), mails.end(),
                       [&](const std::string& m) { return m.find(what) != std::string::npos; });
  };
  std::vector<std::string> mails;
  ASSERT_TRUE(eventually([&] {
    mails = mails_in(dir_);
    return has(mails, " Ended, ") && has(mails, "Reached 50%");
  }));
  EXPECT_EQ(mails.size(), 2u);
  EXPECT_FALSE(has(mails, "Reached 80%")) << "80 % (48 s) was never reached";
  std::string half;
  for (const std::string& m : mails) {
    if (m.find("Reached 50%") != std::string::npos) half = m;
  }
  EXPECT_NE(
      half.find("Subject: Fairway Job_id=" + id + " Name=half Reached 50% of time limit, Run time 00:00:3"),
      std::string::npos)
      << half;
  EXPECT_NE(half.find(", RUNNING\n"), std::string::npos) << half;
}

}  // namespace
}  // namespace fairway::integration
