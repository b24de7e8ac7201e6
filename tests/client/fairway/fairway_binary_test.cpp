// Runs the built `fairway` binary: usage errors exit 2 with a message naming the problem,
// and a whole submit/queue round trip goes through a ROUTER standing in for the coordinator.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include <thread>
#include <zmq.hpp>

#include "shared/wire/codec.h"
#include "tests/client/temp_dir.h"

namespace fairway::cli {
namespace {

struct BinaryRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

BinaryRun run_fairway(const std::string& args) {
  // No coordinator may be found by accident from the caller's environment.
  const std::string cmd =
      "env -u FAIRWAY_COORDINATOR -u FAIRWAY_CONF " + std::string(FAIRWAY_CLI_BINARY) + " " + args + " 2>&1";
  BinaryRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf;
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

void expect_usage_error(const std::string& args, const std::string& message) {
  SCOPED_TRACE(args);
  const BinaryRun r = run_fairway(args);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output.rfind("fairway: error: ", 0), 0u) << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
}

TEST(FairwayBinary, UsageErrorsExitTwoNamingTheProblem) {
  expect_usage_error("", "A subcommand is required");
  expect_usage_error("frobnicate", "unknown subcommand \"frobnicate\"");
  expect_usage_error("queue --bogus", "--bogus");
  expect_usage_error("submit", "submit needs a script path or --wrap");
  expect_usage_error("submit -n 0 --wrap true", "--ntasks=0: must be at least 1");
  expect_usage_error("submit --time=soon --wrap true", "--time=soon");
  expect_usage_error("submit --gres=fpga:1 --wrap true", "--gres=fpga:1");
  expect_usage_error("submit /nonexistent/job.sh", "cannot read job script \"/nonexistent/job.sh\"");
  expect_usage_error("cancel", "cancel needs at least one job id or a filter");
  expect_usage_error("hold", "ids is required");
  expect_usage_error("cancel abc", "job id \"abc\" is not a job number");
  expect_usage_error("show job", "show job needs a job id");
  expect_usage_error("queue -t ZZ", "--states: \"ZZ\" is not a job state");
  expect_usage_error("--coordinator", "--coordinator needs a value");
}

// squeue's listing rules, scontrol show's layouts, sacct's table, sinfo's JSON and -l and
// scancel's quiet are Slurm's commands' own typed options (client/slurm), not fairway's flags.
TEST(FairwayBinary, SlurmModesAreNoFlagsOfFairway) {
  expect_usage_error("queue --squeue-rules", "--squeue-rules");
  expect_usage_error("queue --steps --scontrol-steps", "--scontrol-steps");
  expect_usage_error("queue --steps --step-id 4", "--step-id");
  expect_usage_error("history --live", "--live");
  expect_usage_error("history --sacct-table", "--sacct-table");
  expect_usage_error("cancel --quiet-when-gone 4", "--quiet-when-gone");
  expect_usage_error("nodes --sinfo-json", "--sinfo-json");
  expect_usage_error("nodes -o %P --time-line", "--time-line");
  expect_usage_error("show job 4 --scontrol", "--scontrol");
  expect_usage_error("show node n1 --scontrol", "--scontrol");
  expect_usage_error("show partition --scontrol", "--scontrol");
}

TEST(FairwayBinary, DirectiveProblemsNameLineAndOption) {
  testing::TempDir dir;
  const std::string refused = dir.write("job.sh", "#!/bin/sh\n#SBATCH -n 2\n#SBATCH --array=4-1\ntrue\n");
  expect_usage_error("submit " + refused,
                     refused + " line 3: --array: the range '4-1' ends before it starts");
  // An unknown directive is only a warning: the submission goes on (and here finds no
  // coordinator).
  const std::string unknown = dir.write("job2.sh", "#!/bin/sh\n#SBATCH -n 2\n#SBATCH --bogus\ntrue\n");
  const BinaryRun r = run_fairway("submit " + unknown);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(
      r.output.rfind("fairway: warning: " + unknown + " line 3: unknown directive \"--bogus\" ignored\n", 0),
      0u)
      << r.output;
}

TEST(FairwayBinary, HelpExitsZero) {
  const BinaryRun top = run_fairway("--help");
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.output.find("queue"), std::string::npos);
  const BinaryRun submit = run_fairway("submit --help");
  EXPECT_EQ(submit.exit_code, 0);
  EXPECT_NE(submit.output.find("--wrap"), std::string::npos);
}

// A ROUTER answering a SubmitRequest with job 5 and a JobQuery with one running job.
TEST(FairwayBinary, SubmitAndQueueThroughACoordinatorStandIn) {
  testing::TempDir dir;
  const std::string endpoint = "ipc://" + dir.path() + "/clients.sock";
  zmq::context_t ctx;
  zmq::socket_t router(ctx, zmq::socket_type::router);
  router.set(zmq::sockopt::linger, 0);
  router.bind(endpoint);
  std::vector<wire::Message> seen;
  std::thread server([&] {
    for (int i = 0; i < 2; ++i) {
      zmq::message_t id, body;
      if (!router.recv(id) || !router.recv(body)) return;
      auto request = wire::decode(body.to_string_view());
      if (!request) return;
      seen.push_back(*request);
      wire::Message reply = wire::SubmitReply{.job = JobId(5)};
      if (std::holds_alternative<wire::JobQuery>(*request)) {
        wire::JobView v;
        v.id = JobId(5);
        v.name = "wrap";
        v.user = "alice";
        v.partition = "batch";
        v.state = JobState::kRunning;
        v.start_time = Time::from_seconds(1000);
        v.allocation = {{"node-1", {0}, {}}};
        reply = wire::JobQueryReply{Time::from_seconds(1065), {v}};
      }
      const std::string frame = wire::encode(reply);
      router.send(id, zmq::send_flags::sndmore);
      router.send(zmq::buffer(frame), zmq::send_flags::none);
    }
  });
  const BinaryRun submit = run_fairway("--coordinator " + endpoint + " submit -n 2 --wrap 'echo hi'");
  const BinaryRun queue = run_fairway("queue --coordinator=" + endpoint);
  server.join();
  EXPECT_EQ(submit.exit_code, 0) << submit.output;
  EXPECT_EQ(submit.output, "Submitted batch job 5\n");
  EXPECT_EQ(queue.exit_code, 0) << queue.output;
  EXPECT_NE(queue.output.find("5      batch      wrap  alice  R   1:05  1      node-1"), std::string::npos)
      << queue.output;
  ASSERT_EQ(seen.size(), 2u);
  const auto& request = std::get<wire::SubmitRequest>(seen[0]);
  EXPECT_EQ(request.spec.resources.cores, 2);
  EXPECT_EQ(request.program.argv, (std::vector<std::string>{"/bin/sh", "-c", "echo hi"}));
  EXPECT_EQ(request.client_token.size(), 32u);
}

TEST(FairwayBinary, CoordinatorThatCannotBeFoundExitsOne) {
  testing::TempDir dir;
  // A config file that does not parse fails at once; a dead endpoint would cost the full
  // reply timeout (tested with a short timeout in tests/shared/net).
  const std::string bad = dir.write("bad.toml", "[coordinator\n");
  const BinaryRun r = run_fairway("--config " + bad + " nodes");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("fairway: error: config " + bad), std::string::npos) << r.output;
}

}  // namespace
}  // namespace fairway::cli
