// fairway run (srun) on a loopback cluster of two agents: a step runs on every node of a
// job, with its output forwarded and labelled, its exit as the worst task's; the job's
// other node holds it until it ends; nobody but the job's owner may start a step in it.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <sys/ioctl.h>

#include <fstream>
#include <string>

#include "cluster_fixture.h"

namespace fairway::integration {
namespace {

class JobStep : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "runs the CLI as another user, which needs root";
    start_coordinator();
    start_agent("kb01", kebnekaise_xml());
    start_agent("kb02", kebnekaise_xml());
    ASSERT_TRUE(wait_nodes_up(2));
  }

  // A two-node batch job of nobody's whose srun tasks trap SIGTERM, take 0.3 s to save
  // their work and print it; returns once both tasks said they are ready. `output` is the
  // job's output file.
  JobId job_whose_tasks_save_on_term(const std::string& after_srun, std::string& output) {
    const std::string task = dir_ + "/task.sh";
    std::ofstream(task) << "#!/bin/sh\ntrap 'sleep 0.3; echo saved $SLURM_PROCID; exit 0' TERM\n"
                        << "echo ready $SLURM_PROCID\nwhile :; do sleep 0.1; done\n";
    const std::string script = dir_ + "/grace.sh";
    std::ofstream(script) << "#!/bin/sh\n#SBATCH -N 2\n#SBATCH -n 2\n#SBATCH -o " << dir_ << "/grace-%j.out\n"
                          << "\"$FAIRWAY_CLI\" run -l sh " << task << "\n"
                          << after_srun;
    std::string out;
    EXPECT_EQ(
        run_cli_as("nobody", {"submit", "--parsable", "-D", dir_, script}, out,
                   {"FAIRWAY_COORDINATOR=" + clients_ep_, std::string("FAIRWAY_CLI=") + FAIRWAY_CLI_BINARY}),
        0)
        << out;
    const JobId id(std::stoull(out));
    output = dir_ + "/grace-" + std::to_string(id.value()) + ".out";
    EXPECT_TRUE(eventually([&] {
      const std::string printed = read_file(output);
      return printed.find("0: ready 0\n") != std::string::npos &&
             printed.find("1: ready 1\n") != std::string::npos;
    })) << read_file(output);
    return id;
  }

  // Submits `script` as nobody, with $FAIRWAY_CLI naming the CLI for the script's steps;
  // job 0 (the test failed) when it was refused.
  JobId submit_with_cli(const std::string& script) {
    std::string out;
    const int rc =
        run_cli_as("nobody", {"submit", "--parsable", "-D", dir_, script}, out,
                   {"FAIRWAY_COORDINATOR=" + clients_ep_, std::string("FAIRWAY_CLI=") + FAIRWAY_CLI_BINARY});
    EXPECT_EQ(rc, 0) << out;
    return rc == 0 ? JobId(std::stoull(out)) : JobId(0);
  }

  // Cancels the job as its owner and returns its output once it ended CANCELLED.
  std::string cancel_and_read(JobId id, const std::string& output) {
    std::string out;
    EXPECT_EQ(run_cli_as("nobody", {"cancel", std::to_string(id.value())}, out), 0) << out;
    auto v = wait_state(id, [](JobState s) { return is_terminal(s); });
    EXPECT_TRUE(v && v->state == JobState::kCancelled) << (v ? to_string(v->state) : "not ended");
    return read_file(output);
  }

  // A two-node job of nobody's that sleeps, running.
  JobId running_two_node_job() {
    std::string out;
    EXPECT_EQ(
        run_cli_as("nobody",
                   {"submit", "--parsable", "-D", dir_, "-N", "2", "-n", "4", "--wrap", "sleep 300"}, out),
        0)
        << out;
    const JobId id(std::stoull(out));
    EXPECT_TRUE(wait_state(id, [](JobState s) { return s == JobState::kRunning; }));
    return id;
  }
};

TEST_F(JobStep, RunsOnEveryNodeOfTheJobWithItsOutputLabelled) {
  const JobId id = running_two_node_job();
  std::string out;
  const int rc =
      run_cli_as("nobody",
                 {"run", "--jobid", std::to_string(id.value()), "-l", "sh", "-c",
                  "echo task $SLURM_PROCID of $SLURM_STEP_NUM_TASKS on $SLURMD_NODENAME node $SLURM_NODEID"},
                 out);
  EXPECT_EQ(rc, 0) << out;
  // The job holds 2 cores on each node: Slurm's block distribution puts 2 tasks on each,
  // ranks 0-1 on the job's first node (kb01 or kb02, as placement chose).
  const auto views = job(id);
  ASSERT_TRUE(views && views->allocation.size() == 2);
  const std::string first = views->allocation[0].node, second = views->allocation[1].node;
  ASSERT_NE(first, second);
  for (const std::string& line :
       {"0: task 0 of 4 on " + first + " node 0\n", "1: task 1 of 4 on " + first + " node 0\n",
        "2: task 2 of 4 on " + second + " node 1\n", "3: task 3 of 4 on " + second + " node 1\n"}) {
    EXPECT_NE(out.find(line), std::string::npos) << line << "in:\n" << out;
  }
  // The other node holds the job for its steps (an extern-only launch), not its script.
  EXPECT_NE(
      read_file(dir_ + "/agent-" + second + ".log").find("job_launched job=" + std::to_string(id.value())),
      std::string::npos);
  EXPECT_EQ(read_file(dir_ + "/agent-" + second + ".log").find("job_exited"), std::string::npos);

  // -N 2 alone: one task per node; the worst task's exit is the command's.
  const int worst = run_cli_as(
      "nobody",
      {"run", "--jobid", std::to_string(id.value()), "-N", "2", "sh", "-c", "exit $((SLURM_NODEID + 3))"},
      out);
  EXPECT_EQ(worst, 4) << out;
  EXPECT_NE(out.find(second + ": task 1: Exited with exit code 4"), std::string::npos) << out;
  // A command that is not there fails its tasks, named (126 when a PATH directory is
  // closed to the user, as execvp reports it).
  const int missing = run_cli_as(
      "nobody", {"run", "--jobid", std::to_string(id.value()), "-n", "1", "no-such-command-here"}, out);
  EXPECT_TRUE(missing == 127 || missing == 126) << missing << out;
  EXPECT_NE(out.find("cannot run 'no-such-command-here' on " + first), std::string::npos) << out;

  // A task ignores no signal (the relay ignores SIGPIPE; `yes | head` must still end).
  EXPECT_EQ(run_cli_as("nobody",
                       {"run", "--jobid", std::to_string(id.value()), "-n", "1", "grep", "SigIgn",
                        "/proc/self/status"},
                       out),
            0)
      << out;
  EXPECT_NE(out.find("SigIgn:\t0000000000000000\n"), std::string::npos) << out;

  // Its end releases the other node (its holder, and any step still running there).
  std::string cancel_out;
  ASSERT_EQ(run_cli_as("nobody", {"cancel", std::to_string(id.value())}, cancel_out), 0) << cancel_out;
  EXPECT_TRUE(eventually([&] {
    return read_file(dir_ + "/agent-" + second + ".log")
               .find("job_released job=" + std::to_string(id.value())) != std::string::npos;
  }));
}

TEST_F(JobStep, OutsideAJobItMakesAnAllocationOfItsOwn) {
  std::string out;
  const int rc = run_cli_as(
      "nobody", {"run", "-D", dir_, "-N", "2", "-n", "2", "-t", "5", "-l", "printenv", "SLURMD_NODENAME"},
      out);
  EXPECT_EQ(rc, 0) << out;
  // One task on each node, whichever the allocation lists first.
  const bool kb01_first =
      out.find("0: kb01\n") != std::string::npos && out.find("1: kb02\n") != std::string::npos;
  const bool kb02_first =
      out.find("0: kb02\n") != std::string::npos && out.find("1: kb01\n") != std::string::npos;
  EXPECT_TRUE(kb01_first || kb02_first) << out;
  // As srun: nothing said of an allocation granted at once.
  EXPECT_EQ(out.find("job allocation"), std::string::npos) << out;
}

// A step runs as the job's user: another user (even one who could cancel the job) must
// not get commands run as its owner.
TEST_F(JobStep, AnotherUsersJobIsRefused) {
  const JobId id = running_two_node_job();
  std::string out;
  EXPECT_EQ(run_cli_as("daemon", {"run", "--jobid", std::to_string(id.value()), "id"}, out), 1) << out;
  EXPECT_NE(out.find("belongs to 'nobody'"), std::string::npos) << out;
  // And a job that is not running has no step to run.
  EXPECT_EQ(run_cli_as("nobody", {"run", "--jobid", "999999", "true"}, out), 1) << out;
  EXPECT_NE(out.find("job 999999 does not exist"), std::string::npos) << out;
}

}  // namespace
}  // namespace fairway::integration

namespace fairway::integration {
namespace {

// srun's most common use: inside a batch script, on every node the script was given.
TEST_F(JobStep, ABatchScriptRunsItsStepOnEveryNode) {
  const std::string script = dir_ + "/two-nodes.sh";
  std::ofstream(script)
      << "#!/bin/sh\n#SBATCH -N 2\n#SBATCH -n 2\n#SBATCH -o " << dir_ << "/batch-%j.out\n"
      << "\"$FAIRWAY_CLI\" run -l printenv SLURM_PROCID SLURMD_NODENAME\necho step exit $?\n";
  const JobId id = submit_with_cli(script);
  ASSERT_NE(id.value(), 0u);
  auto v = wait_state(id, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  const std::string printed = read_file(dir_ + "/batch-" + std::to_string(id.value()) + ".out");
  EXPECT_EQ(v->state, JobState::kCompleted) << printed;
  EXPECT_NE(printed.find("0: 0\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("1: 1\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find(": kb01\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find(": kb02\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("step exit 0\n"), std::string::npos) << printed;
}

// mpirun's daemons: srun -K --mpi=none -N1 -n1 -w NODE runs on that node alone, each task
// bound to its own core of the job there; -K ends the step at the first failing task.
TEST_F(JobStep, AStepRunsWhereItsNodelistSaysAndKillOnBadExitEndsIt) {
  const JobId id = running_two_node_job();
  const auto views = job(id);
  ASSERT_TRUE(views && views->allocation.size() == 2);
  const std::string second = views->allocation[1].node;
  const std::string job_id = std::to_string(id.value());
  std::string out;
  EXPECT_EQ(run_cli_as("nobody",
                       {"run", "--jobid", job_id, "-K", "--mpi=none", "-N1", "-n1", "-w", second, "printenv",
                        "SLURMD_NODENAME"},
                       out),
            0)
      << out;
  EXPECT_EQ(out, second + "\n");
  EXPECT_EQ(run_cli_as("nobody", {"run", "--jobid", job_id, "-w", "kb09", "true"}, out), 1) << out;
  EXPECT_NE(out.find("--nodelist: node kb09 is not one of the job's nodes"), std::string::npos) << out;
  EXPECT_EQ(run_cli_as("nobody", {"run", "--jobid", job_id, "--mpi=pmi3", "true"}, out), 2) << out;
  EXPECT_NE(out.find("--mpi=pmi3: expected none, pmi2, pmix or pmix_v4"), std::string::npos) << out;
  // srun --mpi=list lists what is served, in Slurm's words.
  EXPECT_EQ(run_cli_as("nobody", {"run", "--mpi=list"}, out), 0) << out;
  EXPECT_EQ(
      out,
      "MPI plugin types are...\n\tnone\n\tpmi2\n\tpmix\nspecific pmix plugin versions available: pmix_v4\n");
  // With pmi2, every task is told its PMI socket, rank and the step's id as Slurm's pmi2.
  EXPECT_EQ(
      run_cli_as("nobody",
                 {"run", "--jobid", job_id, "--mpi=pmi2", "-N2", "-n2", "-l", "sh", "-c",
                  "echo $PMI_RANK/$PMI_SIZE/$PMI_JOBID/$SLURM_MPI_TYPE; [ -S /proc/self/fd/$PMI_FD ] || "
                  "readlink /proc/self/fd/$PMI_FD"},
                 out),
      0)
      << out;
  EXPECT_NE(out.find("0: 0/2/" + job_id + "."), std::string::npos) << out;
  EXPECT_NE(out.find("1: 1/2/" + job_id + "."), std::string::npos) << out;
  EXPECT_NE(out.find("/pmi2"), std::string::npos) << out;
  EXPECT_EQ(out.find("socket:"), std::string::npos)
      << "readlink printed only when PMI_FD is not a socket: " << out;
  // Task 1 fails at once; task 0 would sleep a minute but for -K.
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(run_cli_as("nobody",
                       {"run", "--jobid", job_id, "-K", "-N", "2", "sh", "-c",
                        "[ $SLURM_NODEID = 1 ] && exit 3; exec sleep 60"},
                       out),
            3)
      << out;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30)) << out;
  EXPECT_NE(out.find("killing the step's other tasks (--kill-on-bad-exit)"), std::string::npos) << out;
}

// Launchers start srun with its stdin closed (MPICH's mpiexec -launcher slurm): its
// listener once took descriptor 0 and was read as stdin too, and 7 of 20 such sruns hung.
TEST_F(JobStep, AStepWhoseStdinIsClosedEnds) {
  const std::string script = dir_ + "/closed-stdin.sh";
  std::ofstream(script)
      << "#!/bin/sh\n#SBATCH -N 2\n#SBATCH -n 2\n#SBATCH -o " << dir_ << "/closed-%j.out\n"
      << "for i in 1 2 3 4 5 6 7 8 9 10; do \"$FAIRWAY_CLI\" run -N 2 -n 2 true <&-; echo \"rc $?\"; done\n";
  std::string out;
  const JobId id = submit_with_cli(script);
  ASSERT_NE(id.value(), 0u);
  auto v = wait_state(
      id, [](JobState s) { return is_terminal(s); }, std::chrono::seconds(60));
  const std::string printed = read_file(dir_ + "/closed-" + std::to_string(id.value()) + ".out");
  if (!v || !is_terminal(v->state)) (void)run_cli_as("nobody", {"cancel", std::to_string(id.value())}, out);
  ASSERT_TRUE(v && v->state == JobState::kCompleted) << printed;
  std::size_t ok = 0;
  for (std::size_t at = printed.find("rc 0\n"); at != std::string::npos; at = printed.find("rc 0\n", at + 1))
    ++ok;
  EXPECT_EQ(ok, 10u) << printed;
}

// A cancel gives srun's tasks, on every node, the SIGTERM and the grace the batch script
// gets: what they write while saving their work still reaches the job's output. They used
// to die at once with their srun (in the script's group), and the job's other node heard
// of the cancel only through the SIGKILL at its end.
TEST_F(JobStep, ACancelGivesTheStepsTasksTheirGraceOnEveryNode) {
  std::string output;
  const JobId id = job_whose_tasks_save_on_term("echo the script went on\n", output);
  const std::string printed = cancel_and_read(id, output);
  EXPECT_NE(printed.find("0: saved 0\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("1: saved 1\n"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("the script went on"), std::string::npos) << printed;
}

// The same after the first node's agent was killed and restarted while the tasks ran: the
// new agent re-adopts the step from its checkpoint. It used to know nothing of it: the
// cancel reached srun alone, and the tasks' last words were lost with it on that node.
TEST_F(JobStep, ATaskKeepsItsGraceAcrossARestartOfItsAgent) {
  std::string output;
  const JobId id = job_whose_tasks_save_on_term("", output);
  // The agent of the script's node dies and comes back; its jobs run on meanwhile.
  agents_.front().stop(SIGKILL);  // kb01's, started first
  agents_.erase(agents_.begin());
  start_agent("kb01", kebnekaise_xml());
  const std::string log = dir_ + "/agent-kb01.log";  // appended to by both
  const auto registrations = [&] {
    const std::string text = read_file(log);
    std::size_t n = 0;
    for (std::size_t at = text.find("agent_registered"); at != std::string::npos;
         at = text.find("agent_registered", at + 1))
      ++n;
    return n;
  };
  ASSERT_TRUE(eventually([&] { return registrations() >= 2; })) << read_file(log);
  EXPECT_NE(read_file(log).find("step_readopted"), std::string::npos) << read_file(log);
  const std::string printed = cancel_and_read(id, output);
  EXPECT_NE(printed.find("0: saved 0\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("1: saved 1\n"), std::string::npos) << printed;
}

// Task 0 reads the caller's stdin; Ctrl-C reaches the tasks, and what ends them is the exit.
TEST_F(JobStep, StdinGoesToTaskZeroAndCtrlCToEveryTask) {
  const JobId id = running_two_node_job();
  const std::string input = dir_ + "/input.txt";
  std::ofstream(input) << "first line\nsecond line\n";
  std::string out;
  EXPECT_EQ(run_cli_as("nobody",
                       {"run", "--jobid", std::to_string(id.value()), "-N", "2", "-l", "sh", "-c",
                        "wc -l | sed \"s/^/lines: /\""},
                       out, {}, input),
            0)
      << out;
  EXPECT_NE(out.find("0: lines: 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("1: lines: 0\n"), std::string::npos) << out;

  const std::string out_path = dir_ + "/interrupted.out";
  const pid_t cli = start_cli_as(
      "nobody", {"run", "--jobid", std::to_string(id.value()), "-N", "2", "sleep", "300"}, out_path);
  // Both relays have started when both agents logged the step (the job's second: .1).
  const auto started = [&](const std::string& node) {
    return read_file(dir_ + "/agent-" + node + ".log")
               .find("step_started step=" + std::to_string(id.value()) + ".1 ") != std::string::npos;
  };
  ASSERT_TRUE(eventually([&] { return started("kb01") && started("kb02"); }));
  // Whether or not a relay has called in yet, the interrupt reaches its tasks.
  ::kill(cli, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(cli, &status, 0), cli);
  const std::string printed = read_file(out_path);
  ASSERT_TRUE(WIFEXITED(status)) << printed;
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGINT) << printed;
  EXPECT_NE(printed.find("SIGINT sent to the step's tasks"), std::string::npos) << printed;
  EXPECT_NE(printed.find("task 1: Interrupt"), std::string::npos) << printed;
}

}  // namespace
}  // namespace fairway::integration

namespace fairway::integration {
namespace {

// The CLI run as `user` on a pseudo-terminal of its own (its controlling terminal), as a
// person at a terminal would: `typed` is written to the terminal at once (it waits in the
// terminal until something reads it); returns the exit status and all the terminal showed.
class AtATerminal : public JobStep {
 protected:
  int run_on_terminal(const std::string& user, const std::vector<std::string>& args,
                      const std::vector<std::string>& env, const std::string& typed, std::string& shown) {
    const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) return -1;
    const std::string slave = ::ptsname(master);
    const passwd* pw = getpwnam(user.c_str());
    if (pw == nullptr || ::chown(slave.c_str(), pw->pw_uid, pw->pw_gid) != 0) return -1;
    const pid_t pid = fork();
    if (pid == 0) {
      ::setsid();
      const int fd = ::open(slave.c_str(), O_RDWR);
      if (fd < 0 || ::ioctl(fd, TIOCSCTTY, 0) != 0) _exit(94);
      dup2(fd, 0);
      dup2(fd, 1);
      dup2(fd, 2);
      std::vector<std::string> argv = {"fairway", "--coordinator", clients_ep_};
      argv.insert(argv.end(), args.begin(), args.end());
      exec_as({user, FAIRWAY_CLI_BINARY, argv, env, false, {}});
    }
    (void)!::write(master, typed.data(), typed.size());
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    char buf[4096];
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{master, POLLIN, 0};
      if (::poll(&p, 1, 200) <= 0) continue;
      const ssize_t n = ::read(master, buf, sizeof buf);
      if (n <= 0) break;  // EIO: the terminal's last user is gone
      shown.append(buf, static_cast<std::size_t>(n));
    }
    ::close(master);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};

// salloc as people use it: a shell on the submit host, srun inside it, exit to end it.
TEST_F(AtATerminal, AllocGivesAShellWhoseStepsRunOnTheAllocation) {
  std::string shown;
  const int rc = run_on_terminal(
      "nobody", {"alloc", "-D", dir_, "-N", "2", "-n", "2", "-t", "5"},
      {"SHELL=/bin/sh", "FAIRWAY_COORDINATOR=" + clients_ep_,
       std::string("FAIRWAY_CLI=") + FAIRWAY_CLI_BINARY},
      "\"$FAIRWAY_CLI\" run -l printenv SLURMD_NODENAME; echo alloc-$SLURM_JOB_NUM_NODES-nodes; exit 7\n",
      shown);
  EXPECT_EQ(rc, 7) << shown;
  EXPECT_NE(shown.find("Granted job allocation"), std::string::npos) << shown;
  EXPECT_NE(shown.find("0: kb0"), std::string::npos) << shown;
  EXPECT_NE(shown.find("1: kb0"), std::string::npos) << shown;
  EXPECT_NE(shown.find("alloc-2-nodes"), std::string::npos) << shown;
  EXPECT_NE(shown.find("Relinquishing job allocation"), std::string::npos) << shown;
}

// srun --pty: an interactive shell on the job's node, on a terminal of its own there.
TEST_F(AtATerminal, RunPtyGivesTaskZeroATerminalOfItsOwn) {
  const JobId id = running_two_node_job();
  std::string shown;
  const int rc =
      run_on_terminal("nobody", {"run", "--jobid", std::to_string(id.value()), "-N", "1", "--pty", "/bin/sh"},
                      {}, "tty; echo on-$SLURMD_NODENAME-$((6 * 7)); exit 3\n", shown);
  EXPECT_EQ(rc, 3) << shown;
  EXPECT_NE(shown.find("/dev/pts/"), std::string::npos) << shown;
  EXPECT_NE(shown.find("on-kb0"), std::string::npos) << shown;
  EXPECT_NE(shown.find("-42"), std::string::npos) << shown;
}

// srun --exclusive steps in a 2-core job, as job farms run them: two run at once, each on a
// core of its own; the third waits for one of them, saying so in Slurm's words (captured
// on twonode.sh: "step creation temporarily disabled, retrying (Requested nodes are busy)").
TEST_F(JobStep, AThirdExclusiveStepWaitsForACoreOfTwo) {
  const std::string script = dir_ + "/farm.sh";
  std::ofstream(script) << "#!/bin/sh\n#SBATCH -N 1\n#SBATCH -n 2\n#SBATCH -o " << dir_ << "/farm-%j.out\n"
                        << "\"$FAIRWAY_CLI\" run --exclusive -n1 sh -c 'echo one $(date +%s.%N); sleep 2' &\n"
                        << "\"$FAIRWAY_CLI\" run --exact -n1 sh -c 'echo two $(date +%s.%N); sleep 2' &\n"
                        << "sleep 1\n"
                        << "\"$FAIRWAY_CLI\" run --exclusive -n1 sh -c 'echo three $(date +%s.%N)' 2>&1\n"
                        << "wait\n";
  const JobId id = submit_with_cli(script);
  ASSERT_NE(id.value(), 0u);
  auto v = wait_state(
      id, [](JobState s) { return is_terminal(s); }, std::chrono::seconds(60));
  ASSERT_TRUE(v && v->state == JobState::kCompleted) << (v ? to_string(v->state) : "not ended");
  const std::string printed = read_file(dir_ + "/farm-" + std::to_string(id.value()) + ".out");
  const std::string job = std::to_string(id.value());
  EXPECT_NE(printed.find("srun: Job " + job +
                         " step creation temporarily disabled, retrying (Requested nodes are busy)\n"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("srun: Step created for job " + job + "\n"), std::string::npos) << printed;
  const auto at = [&](const std::string& word) {
    const auto p = printed.find(word + " ");
    return p == std::string::npos ? 0.0 : std::stod(printed.substr(p + word.size() + 1));
  };
  ASSERT_GT(at("one"), 0.0) << printed;
  ASSERT_GT(at("two"), 0.0) << printed;
  ASSERT_GT(at("three"), 0.0) << printed;
  EXPECT_LT(std::abs(at("one") - at("two")), 1.0) << "the first two ran at once:\n" << printed;
  EXPECT_GT(at("three") - std::min(at("one"), at("two")), 1.5) << "the third waited for a core:\n" << printed;
}

}  // namespace
}  // namespace fairway::integration
