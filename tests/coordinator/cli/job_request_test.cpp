#include "coordinator/cli/job_request.h"

#include <gtest/gtest.h>

#include <algorithm>

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
                       "00112233445566778899aabbccddeeff", Time::from_seconds(1'800'000'000), "login1", ""};
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
  std::vector<wire::EnvVar> env = context().env;
  env.emplace_back("SLURM_SUBMIT_HOST", "login1");
  EXPECT_EQ(r.program.env, env);
}

TEST(BuildSubmission, WrapRunsUnderShAndKeepsDefaults) {
  SubmitCommand cmd;
  cmd.wrap = "echo hi";
  cmd.options = options({"--hold", "-D", "/scratch", "--mem=2G", "--tmp=10G", "-J", "quick"});
  auto b = build_submission(cmd, "#SBATCH -n 99\n", context());  // no script: ignored
  ASSERT_TRUE(b.has_value()) << b.error().message;
  EXPECT_EQ(b->request.program.argv, (std::vector<std::string>{"/bin/sh", "-c", "echo hi"}));
  EXPECT_EQ(b->request.program.script, "");
  EXPECT_EQ(b->request.program.working_dir, "/scratch");
  EXPECT_EQ(b->request.spec.resources, (ResourceRequest{0, 1, 0, "", 2048, 0}));
  EXPECT_EQ(b->request.spec.name, "quick");
  EXPECT_EQ(b->request.spec.time_limit, JobSpec{}.time_limit);
  EXPECT_TRUE(b->request.spec.hold);
  EXPECT_TRUE(b->request.spec.requeue);
  EXPECT_EQ(b->request.spec.resources.memory_per_node_mb, 2048);
  EXPECT_EQ(b->warnings.size(), 1u);
}

TEST(BuildSubmission, DirectiveErrorsNameScriptLineAndOption) {
  SubmitCommand cmd;
  cmd.script_path = "job.sh";
  auto b = build_submission(cmd, "#!/bin/sh\n#SBATCH -n 2\n#SBATCH --licenses=matlab\nls\n", context());
  ASSERT_FALSE(b.has_value());
  EXPECT_EQ(b.error().message, "job.sh line 3: --licenses: licenses are not scheduled yet");
  // An array directive carries into the request; a malformed one names its line.
  b = build_submission(cmd, "#!/bin/sh\n#SBATCH --array=1-10:3%2\nls\n", context());
  ASSERT_TRUE(b.has_value()) << b.error().message;
  EXPECT_EQ(format_array_spec(b->request.spec.array), "1-10:3%2");
  b = build_submission(cmd, "#!/bin/sh\n#SBATCH -a 1-x\nls\n", context());
  ASSERT_FALSE(b.has_value());
  EXPECT_EQ(b.error().message.rfind("job.sh line 2: --array: 'x' in '1-x' is not a task index", 0), 0u) << b.error().message;
  b = build_submission(cmd, "#SBATCH -t never\n", context());
  ASSERT_FALSE(b.has_value());
  EXPECT_EQ(b.error().message.rfind("job.sh line 1: --time=never: ", 0), 0u) << b.error().message;
}

// A script as the sites' user guides write them (HPC2N, Sigma2, Clemson), with options
// Fairway does not act on yet: it is accepted, with a warning for each of those.
TEST(BuildSubmission, ATypicalSiteScriptRunsUnchanged) {
  const std::string script = R"(#!/bin/bash
#SBATCH --job-name=md-equil
#SBATCH --account=hpc2n2026-042
#SBATCH --ntasks=4
#SBATCH --cpus-per-task=2
#SBATCH --time=0-02:30:00
#SBATCH --mem-per-cpu=2G
#SBATCH --mail-type=END,FAIL
#SBATCH --mail-user=alice@example.org
#SBATCH --output=%x-%j.out
#SBATCH --open-mode=append
#SBATCH --comment="equilibration, step 2"
#SBATCH --dependency=afterok:41
#SBATCH --nice=10
#SBATCH --export=ALL,OMP_NUM_THREADS=2
#SBATCH --hint=nomultithread
#SBATCH --some-new-option=7
module load GROMACS
srun gmx mdrun
)";
  SubmitCommand cmd;
  cmd.script_path = "md.sh";
  auto b = build_submission(cmd, script, context());
  ASSERT_TRUE(b.has_value()) << b.error().message;
  const JobSpec& spec = b->request.spec;
  EXPECT_EQ(spec.name, "md-equil");
  EXPECT_EQ(spec.account, "hpc2n2026-042");
  EXPECT_EQ(spec.resources.cores, 8);
  EXPECT_EQ(spec.tasks, (TaskLayout{4, 2, 0}));
  EXPECT_EQ(spec.time_limit, Duration::minutes(150));
  EXPECT_EQ(spec.comment, "equilibration, step 2");
  ASSERT_EQ(spec.dependencies.size(), 1u);
  EXPECT_EQ(spec.dependencies[0], (DependencyClause{DependencyType::kAfterOk, {JobId(41)}}));
  EXPECT_EQ(spec.nice, 10);
  EXPECT_EQ(spec.resources.memory_per_cpu_mb, 2048);
  EXPECT_EQ(spec.mail_events, kMailEnd | kMailFail);
  EXPECT_EQ(spec.mail_user, "alice@example.org");
  const wire::JobProgram& p = b->request.program;
  EXPECT_TRUE(p.open_append);
  EXPECT_EQ(p.stdout_path, "%x-%j.out");
  EXPECT_EQ(p.env, (std::vector<wire::EnvVar>{{"PATH", "/usr/bin"},
                                              {"HOME", "/home/alice"},
                                              {"OMP_NUM_THREADS", "2"},
                                              {"SLURM_SUBMIT_HOST", "login1"}}));
  EXPECT_EQ(b->warnings, (std::vector<std::string>{
                             "md.sh line 17: unknown directive \"--some-new-option=7\" ignored"}));
}

// As sbatch: the job's files get the submitter's umask (SLURM_UMASK), unless the caller
// set SLURM_UMASK itself.
TEST(BuildSubmission, TheSubmittersUmaskGoesWithTheJob) {
  SubmitCommand cmd;
  cmd.wrap = "true";
  SubmitContext ctx = context();
  ctx.umask = "0027";
  auto b = build_submission(cmd, "", ctx);
  ASSERT_TRUE(b) << b.error().message;
  const auto& env = b->request.program.env;
  EXPECT_EQ(env.back(), (wire::EnvVar{"SLURM_UMASK", "0027"}));
  ctx.env.emplace_back("SLURM_UMASK", "0077");
  b = build_submission(cmd, "", ctx);
  ASSERT_TRUE(b);
  EXPECT_EQ(std::count_if(b->request.program.env.begin(), b->request.program.env.end(),
                          [](const wire::EnvVar& v) { return v.first == "SLURM_UMASK"; }),
            1);
}

TEST(BuildSubmission, ExportForms) {
  SubmitContext ctx = context();
  ctx.env.emplace_back("SLURM_CONF", "/etc/slurm.conf");
  ctx.host.clear();
  const auto env_for = [&](const std::string& spec) {
    SubmitCommand cmd;
    cmd.wrap = "true";
    cmd.options.export_spec = spec;
    auto b = build_submission(cmd, "", ctx);
    EXPECT_TRUE(b.has_value()) << spec;
    return b ? b->request.program.env : std::vector<wire::EnvVar>{};
  };
  EXPECT_EQ(env_for("ALL"), ctx.env);
  EXPECT_EQ(env_for("NONE"), (std::vector<wire::EnvVar>{{"SLURM_CONF", "/etc/slurm.conf"}}));
  EXPECT_EQ(env_for("HOME,X=1"), (std::vector<wire::EnvVar>{
                                     {"SLURM_CONF", "/etc/slurm.conf"}, {"HOME", "/home/alice"}, {"X", "1"}}));
  SubmitCommand bad;
  bad.wrap = "true";
  bad.options.export_spec = "HOME,ALL";
  auto b = build_submission(bad, "", ctx);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("--export=HOME,ALL: bad entry \"ALL\""), std::string::npos);
}

TEST(BuildSubmission, BeginIsResolvedAgainstTheClock) {
  SubmitCommand cmd;
  cmd.wrap = "true";
  cmd.options.begin = "now+2hours";
  auto b = build_submission(cmd, "", context());
  ASSERT_TRUE(b);
  EXPECT_EQ(b->request.spec.begin, Time::from_seconds(1'800'000'000 + 7200));
  cmd.options.begin = "now";  // no later than now: no begin at all
  b = build_submission(cmd, "", context());
  ASSERT_TRUE(b);
  EXPECT_FALSE(b->request.spec.begin.has_value());
  cmd.options.begin = "whenever";
  b = build_submission(cmd, "", context());
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().message.rfind("--begin=whenever: not a time Fairway reads", 0), 0u);
}

}  // namespace
}  // namespace fairway::cli
