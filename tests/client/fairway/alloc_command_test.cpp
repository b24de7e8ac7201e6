// `fairway alloc`: an interactive job that holds the allocation, the command run here with
// its SLURM_* environment once it is granted, and the allocation ended after it.
#include "client/fairway/alloc_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/client/temp_dir.h"

namespace fairway::cli {
namespace {

class Alloc : public ::testing::Test {
 protected:
  testing::TempDir dir;
  std::ostringstream out, err;
  Output io{out, err};
  std::vector<wire::Message> sent;
  int pending_polls = 2;
  JobState final_state = JobState::kRunning;

  SubmitContext context() {
    return SubmitContext{"alice",
                         dir.path(),
                         {{"PATH", "/usr/bin:/bin"}, {"SLURM_JOB_ID", "stale"}},
                         "tok-1",
                         Time::from_seconds(1'800'000'000),
                         "login1",
                         "",
                         std::nullopt};
  }
  Transport transport() {
    return [this](const wire::Message& m) -> Result<wire::Message> {
      sent.push_back(m);
      if (std::holds_alternative<wire::SubmitRequest>(m)) return wire::SubmitReply{.job = JobId(55)};
      if (std::holds_alternative<wire::JobControl>(m)) return wire::JobControlReply{};
      wire::JobQueryReply r;
      wire::JobView v;
      v.id = JobId(55);
      v.name = "interactive";
      v.partition = "interact";
      if (pending_polls > 0) {
        --pending_polls;
        v.state = JobState::kPending;
      } else {
        v.state = final_state;
        v.allocation = {{"n1", {0, 1}, {}}, {"n2", {4, 5}, {}}};
      }
      r.jobs.push_back(v);
      return r;
    };
  }
  std::string file(const std::string& name) {
    std::ifstream f(dir.path() + "/" + name);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
};

TEST_F(Alloc, RunsTheCommandWithTheAllocationsEnvironmentAndEndsItAfter) {
  const std::string script =
      "echo $SLURM_JOB_ID $SLURM_JOB_NODELIST $SLURM_NTASKS $SLURM_JOB_CPUS_PER_NODE $SLURM_JOB_PARTITION "
      "> " +
      dir.path() + "/env.txt; exit 3";
  const int code = run_alloc({"-n", "4", "/bin/sh", "-c", script}, context(), transport(), io,
                             std::chrono::milliseconds(1));
  EXPECT_EQ(code, 3) << err.str();
  EXPECT_EQ(file("env.txt"), "55 n[1-2] 4 2(x2) interact\n");
  ASSERT_GE(sent.size(), 5u);
  const auto& submit = std::get<wire::SubmitRequest>(sent.front());
  EXPECT_TRUE(submit.spec.interactive) << "interactive jobs go to the interactive partition";
  EXPECT_EQ(submit.spec.resources.cores, 4);
  EXPECT_EQ(submit.program.argv, (std::vector<std::string>{"/bin/sh", "-c", "exec sleep infinity"}));
  EXPECT_EQ(submit.spec.name, "sh") << "named after its command, as Slurm's";
  // Ended with its command's exit code, so it ends FAILED 3:0 as in Slurm, not CANCELLED.
  const auto& end = std::get<wire::JobControl>(sent.back());
  EXPECT_EQ(end.action, wire::JobAction::kEndAllocation);
  EXPECT_EQ(end.exit_code, 3);
  EXPECT_EQ(end.jobs, std::vector<JobId>{JobId(55)});
  EXPECT_NE(err.str().find("Granted job allocation 55"), std::string::npos);
  EXPECT_NE(err.str().find("Relinquishing job allocation 55"), std::string::npos);
}

TEST_F(Alloc, AnAllocationThatEndsBeforeItIsGrantedRunsNothing) {
  final_state = JobState::kCancelled;
  const int code = run_alloc({"/bin/sh", "-c", "touch " + dir.path() + "/ran"}, context(), transport(), io,
                             std::chrono::milliseconds(1));
  EXPECT_EQ(code, kExitFailure);
  EXPECT_NE(err.str().find("ended CANCELLED before it was granted"), std::string::npos) << err.str();
  EXPECT_FALSE(std::ifstream(dir.path() + "/ran").good());
}

TEST_F(Alloc, BadOptionsAreUsageErrors) {
  EXPECT_EQ(run_alloc({"-n", "zero", "true"}, context(), transport(), io), kExitUsage);
  EXPECT_EQ(run_alloc({"--pty", "true"}, context(), transport(), io), kExitUsage);
  EXPECT_TRUE(sent.empty());
}

// salloc's usual form: no command, the user's shell.
TEST_F(Alloc, WithoutACommandItRunsTheUsersShell) {
  const std::string shell = dir.path() + "/shell";
  std::ofstream(shell) << "#!/bin/sh\ntouch " << dir.path() << "/shell-ran\nexit 4\n";
  std::filesystem::permissions(shell, std::filesystem::perms(0755));
  const char* saved = std::getenv("SHELL");
  const std::string old = saved != nullptr ? saved : "";
  ::setenv("SHELL", shell.c_str(), 1);
  const int code = run_alloc({"-n", "1"}, context(), transport(), io, std::chrono::milliseconds(1));
  if (saved != nullptr)
    ::setenv("SHELL", old.c_str(), 1);
  else
    ::unsetenv("SHELL");
  EXPECT_EQ(code, 4) << err.str();
  EXPECT_TRUE(std::ifstream(dir.path() + "/shell-ran").good());
}

}  // namespace
}  // namespace fairway::cli
