#include "coordinator/cli/job_request.h"

#include <gtest/gtest.h>

namespace fairway::cli {
namespace {

SubmitOptions options(const std::vector<std::string>& words) {
  SubmitOptions o;
  auto st = parse_directive_words(words, o);
  EXPECT_TRUE(st.has_value()) << st.error().message;
  return o;
}

ResourceRequest map_ok(const std::vector<std::string>& words) {
  auto r = map_resources(options(words));
  EXPECT_TRUE(r.has_value()) << r.error().message;
  return r.value_or(ResourceRequest{});
}

SubmitContext context() {
  return SubmitContext{"alice", "/home/alice/proj", {{"PATH", "/usr/bin"}, {"HOME", "/home/alice"}},
                       "00112233445566778899aabbccddeeff"};
}

TEST(MapResources, DefaultsToOneCore) {
  EXPECT_EQ(map_ok({}), (ResourceRequest{0, 1, 0, ""}));
}

TEST(MapResources, WithoutNodesCoresSpreadFreely) {
  EXPECT_EQ(map_ok({"-n", "8", "-c", "2"}), (ResourceRequest{0, 16, 0, ""}));
  EXPECT_EQ(map_ok({"-n", "8", "--gpus=a100:3"}), (ResourceRequest{0, 8, 3, "a100"}));
  EXPECT_EQ(map_ok({"--gres=gpu:2"}), (ResourceRequest{0, 1, 2, ""}));
  EXPECT_EQ(map_ok({"--ntasks-per-node=6"}), (ResourceRequest{0, 6, 0, ""}));
}

TEST(MapResources, WithNodesEverythingIsPerNode) {
  EXPECT_EQ(map_ok({"-N", "2"}), (ResourceRequest{2, 1, 0, ""}));
  EXPECT_EQ(map_ok({"-N", "3", "-n", "10", "-c", "2"}), (ResourceRequest{3, 8, 0, ""}));  // ceil(10/3)=4
  EXPECT_EQ(map_ok({"-N", "2", "--ntasks-per-node=4", "-n", "100", "-c", "3"}),
            (ResourceRequest{2, 12, 0, ""}));
  EXPECT_EQ(map_ok({"-N", "2", "--gres=gpu:v100:4"}), (ResourceRequest{2, 1, 4, "v100"}));
  EXPECT_EQ(map_ok({"-N", "2", "--gpus-per-node=1", "--gres=gpu:4"}),
            (ResourceRequest{2, 1, 1, ""}));
  EXPECT_EQ(map_ok({"-N", "4", "--gpus=8"}), (ResourceRequest{4, 1, 2, ""}));
}

TEST(MapResources, Inconsistencies) {
  EXPECT_EQ(map_resources(options({"-N", "4", "-n", "2"})).error().message,
            "--ntasks=2 is fewer than --nodes=4: every node needs a task");
  EXPECT_EQ(map_resources(options({"-N", "2", "--gpus=3"})).error().message,
            "--gpus=3 cannot be spread evenly over --nodes=2; use --gpus-per-node");
  EXPECT_EQ(map_resources(options({"--gpus=a100:1", "--gres=gpu:v100:1"})).error().message,
            "--gres asks for GPU type \"v100\" but another option asks for \"a100\"");
  EXPECT_NE(map_resources(options({"-n", "100000", "-c", "100000"})).error().message.find(
                "10000000000 cores is too many"),
            std::string::npos);
}

TEST(BuildSubmission, ScriptDirectivesAndCommandLineOverride) {
  SubmitCommand cmd;
  cmd.script_path = "jobs/train.sh";
  cmd.script_args = {"--epochs", "3"};
  cmd.options = options({"-n", "16", "-D", "out"});
  const std::string script =
      "#!/bin/bash\n#SBATCH -n 4 -p gpu --gres=gpu:a100:1 -t 30\n#SBATCH --no-requeue -o "
      "log.txt\npython train.py\n";
  auto b = build_submission(cmd, script, context());
  ASSERT_TRUE(b.has_value()) << b.error().message;
  const wire::SubmitRequest& r = b->request;
  EXPECT_EQ(r.client_token, "00112233445566778899aabbccddeeff");
  EXPECT_EQ(r.spec.user, "alice");
  EXPECT_EQ(r.spec.name, "train.sh");
  EXPECT_EQ(r.spec.partition, "gpu");
  EXPECT_EQ(r.spec.account, "");  // the coordinator applies the default
  EXPECT_EQ(r.spec.qos, "");
  EXPECT_EQ(r.spec.resources, (ResourceRequest{0, 16, 1, "a100"}));
  EXPECT_EQ(r.spec.time_limit, Duration::minutes(30));
  EXPECT_FALSE(r.spec.requeue);
  EXPECT_FALSE(r.spec.hold);
  EXPECT_EQ(r.program.script, script);
  EXPECT_EQ(r.program.argv, cmd.script_args);
  EXPECT_EQ(r.program.working_dir, "/home/alice/proj/out");
  EXPECT_EQ(r.program.stdout_path, "log.txt");
  EXPECT_EQ(r.program.stderr_path, "");
  EXPECT_EQ(r.program.env, context().env);
}

TEST(BuildSubmission, WrapRunsUnderShAndKeepsDefaults) {
  SubmitCommand cmd;
  cmd.wrap = "echo hi";
  cmd.options = options({"--hold", "-D", "/scratch", "--mem=2G", "-J", "quick"});
  auto b = build_submission(cmd, "#SBATCH -n 99\n", context());  // no script: ignored
  ASSERT_TRUE(b.has_value()) << b.error().message;
  EXPECT_EQ(b->request.program.argv, (std::vector<std::string>{"/bin/sh", "-c", "echo hi"}));
  EXPECT_EQ(b->request.program.script, "");
  EXPECT_EQ(b->request.program.working_dir, "/scratch");
  EXPECT_EQ(b->request.spec.resources, (ResourceRequest{0, 1, 0, ""}));
  EXPECT_EQ(b->request.spec.name, "quick");
  EXPECT_EQ(b->request.spec.time_limit, JobSpec{}.time_limit);
  EXPECT_TRUE(b->request.spec.hold);
  EXPECT_TRUE(b->request.spec.requeue);
  EXPECT_EQ(b->warnings.size(), 1u);
}

TEST(BuildSubmission, DirectiveErrorsNameScriptLineAndOption) {
  SubmitCommand cmd;
  cmd.script_path = "job.sh";
  auto b = build_submission(cmd, "#!/bin/sh\n#SBATCH -n 2\n#SBATCH --bogus 3\nls\n", context());
  ASSERT_FALSE(b.has_value());
  EXPECT_EQ(b.error().message, "job.sh line 3: unknown option \"--bogus\"");
  b = build_submission(cmd, "#SBATCH -t never\n", context());
  ASSERT_FALSE(b.has_value());
  EXPECT_EQ(b.error().message.rfind("job.sh line 1: --time=never: ", 0), 0u) << b.error().message;
}

}  // namespace
}  // namespace fairway::cli
