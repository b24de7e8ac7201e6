#include "client/api/job_request.h"

#include <map>

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
  return SubmitContext{"alice",
                       "/home/alice/proj",
                       {{"PATH", "/usr/bin"}, {"HOME", "/home/alice"}},
                       "00112233445566778899aabbccddeeff",
                       Time::from_seconds(1'800'000'000),
                       "login1",
                       "",
                       std::nullopt};
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
  EXPECT_EQ(map_ok({"-N", "2", "--gpus-per-node=1", "--gres=gpu:4"}), (ResourceRequest{2, 1, 1, ""}));
  EXPECT_EQ(map_ok({"-N", "4", "--gpus=8"}), (ResourceRequest{4, 1, 2, ""}));
}

// mincpus on twonode.sh: --mincpus=4 got 4 CPUs (and 4 tasks per node in SLURM_TASKS_PER_NODE).
TEST(MapResources, MinCpusRaisesTheCoresOnEachNode) {
  EXPECT_EQ(map_ok({"--mincpus=4"}), (ResourceRequest{0, 4, 0, ""}));
  EXPECT_EQ(map_ok({"-N2", "--mincpus=3"}), (ResourceRequest{2, 3, 0, ""}));
  EXPECT_EQ(map_ok({"-n8", "--mincpus=4"}), (ResourceRequest{0, 8, 0, ""}));
}

TEST(MapResources, Inconsistencies) {
  EXPECT_EQ(map_resources(options({"-N", "4", "-n", "2"})).error().message,
            "--ntasks=2 is fewer than --nodes=4: every node needs a task");
  EXPECT_EQ(map_resources(options({"-N", "2", "--gpus=3"})).error().message,
            "--gpus=3 cannot be spread evenly over --nodes=2; use --gpus-per-node");
  EXPECT_EQ(map_resources(options({"--gpus=a100:1", "--gres=gpu:v100:1"})).error().message,
            "--gres asks for GPU type \"v100\" but another option asks for \"a100\"");
  EXPECT_NE(map_resources(options({"-n", "100000", "-c", "100000"}))
                .error()
                .message.find("10000000000 cores is too many"),
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
  env.emplace_back("SLURM_SUBMIT_DIR", "/home/alice/proj");  // where it was submitted, not -D's out
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
  EXPECT_EQ(b->request.spec.time_limit, Duration()) << "none given: the partition's default_time";
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
  EXPECT_EQ(b.error().message.rfind("job.sh line 2: --array: 'x' in '1-x' is not a task index", 0), 0u)
      << b.error().message;
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
                                              {"SLURM_SUBMIT_HOST", "login1"},
                                              {"SLURM_SUBMIT_DIR", "/home/alice/proj"},
                                              {"SLURM_MEM_PER_CPU", "2048"},
                                              {"SLURM_EXPORT_ENV", "ALL,OMP_NUM_THREADS=2"},
                                              {"SLURM_GET_USER_ENV", "1"},
                                              {"SLURM_OPEN_MODE", "a"},
                                              {"SLURM_HINT", "nomultithread"},
                                              {"SLURM_THREADS_PER_CORE", "1"},
                                              {"SLURM_JOB_DEPENDENCY", "afterok:41"}}));
  EXPECT_EQ(b->warnings,
            (std::vector<std::string>{"md.sh line 17: unknown directive \"--some-new-option=7\" ignored"}));
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
    std::vector<wire::EnvVar> env = b ? b->request.program.env : std::vector<wire::EnvVar>{};
    // Always there, whatever --export says (where sbatch ran): checked on its own below.
    std::erase_if(env, [](const wire::EnvVar& v) {
      return v.first == "SLURM_SUBMIT_DIR" && v.second == "/home/alice/proj";
    });
    return env;
  };
  EXPECT_EQ(env_for("ALL"), ctx.env);
  // Slurm's sbatch passes the --export given on as SLURM_EXPORT_ENV (not for ALL).
  // and says the environment was chosen (SLURM_GET_USER_ENV), as the conformance captures show.
  EXPECT_EQ(env_for("NONE"), (std::vector<wire::EnvVar>{{"SLURM_CONF", "/etc/slurm.conf"},
                                                        {"SLURM_EXPORT_ENV", "NONE"},
                                                        {"SLURM_GET_USER_ENV", "1"}}));
  EXPECT_EQ(env_for("HOME,X=1"), (std::vector<wire::EnvVar>{{"SLURM_CONF", "/etc/slurm.conf"},
                                                            {"HOME", "/home/alice"},
                                                            {"X", "1"},
                                                            {"SLURM_EXPORT_ENV", "HOME,X=1"},
                                                            {"SLURM_GET_USER_ENV", "1"}}));
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

// sbatch refuses a script with DOS line breaks (row dir_crlf), naming them.
TEST(BuildSubmission, DosLineBreaksAreRefused) {
  SubmitCommand cmd;
  cmd.script_path = "job.sh";
  auto b = build_submission(cmd, "#!/bin/bash\r\n#SBATCH -n2\r\necho hi\r\n", context());
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().message.rfind("job.sh: Batch script contains DOS line breaks", 0), 0u)
      << b.error().message;
}

// As Slurm 22.05 sized them (tests/conformance/expected: gpt1_n2, gpt1_N2n2, cpg2_g2, tpg2).
TEST(MapResources, GpuRelativeRequests) {
  const auto mapped = [](const std::vector<std::string>& words) {
    auto o = resolve_gpu_relative(options(words));
    EXPECT_TRUE(o.has_value()) << o.error().message;
    auto r = map_resources(*o);
    EXPECT_TRUE(r.has_value()) << r.error().message;
    return r.value_or(ResourceRequest{});
  };
  EXPECT_EQ(mapped({"--gpus-per-task=1", "-n", "2"}), (ResourceRequest{0, 2, 2, ""}));
  EXPECT_EQ(mapped({"--gpus-per-task=1", "-N", "2", "-n", "2"}), (ResourceRequest{2, 1, 1, ""}));
  EXPECT_EQ(mapped({"--cpus-per-gpu=2", "--gpus=2"}), (ResourceRequest{0, 4, 2, ""}));
  EXPECT_EQ(mapped({"--ntasks-per-gpu=2", "--gpus=1"}), (ResourceRequest{0, 2, 1, ""}));
  EXPECT_EQ(resolve_gpu_relative(options({"--gpus-per-task=1", "--gpus=2"})).error().message,
            "--gpus-per-task cannot be combined with --gpus, --gpus-per-node or --gres here");
  EXPECT_EQ(resolve_gpu_relative(options({"--ntasks-per-gpu=2"})).error().message,
            "--ntasks-per-gpu needs GPUs (--gpus, --gpus-per-node or --gres)");
  // env_gpt: Slurm refuses GPUs per task with no task count.
  EXPECT_EQ(resolve_gpu_relative(options({"--gpus-per-task=1"})).error().message,
            "--gpus-per-task used without either --gpus or -n/--ntasks is not allowed");
}

// As sbatch on twonode.sh: -N1-2 -n2 ran on 2 nodes, --nodes=1-2 on 1, -N 2-2 on 2, and
// -N2 -n1 on 1 with "can't run 1 processes on 2 nodes, setting nnodes to 1".
TEST(ResolveNodeCount, RangesAndMoreNodesThanTasksAsSlurm) {
  const auto resolved = [](const std::vector<std::string>& words) {
    SubmitOptions o = options(words);
    resolve_node_count(o);
    return o;
  };
  EXPECT_EQ(resolved({"-N1-2", "-n2"}).nodes, 2);
  EXPECT_EQ(resolved({"--nodes=1-2"}).nodes, 1);
  EXPECT_EQ(resolved({"-N", "2-2"}).nodes, 2);
  EXPECT_EQ(resolved({"-N", "2-4", "-n", "9"}).nodes, 4);
  EXPECT_FALSE(resolved({"-N", "2-4"}).nodes_max.has_value());
  const SubmitOptions fewer = resolved({"-N2", "-n1"});
  EXPECT_EQ(fewer.nodes, 1);
  ASSERT_EQ(fewer.warnings.size(), 1u);
  EXPECT_EQ(fewer.warnings[0], "can't run 1 processes on 2 nodes, setting nnodes to 1");
  EXPECT_EQ(resolved({"-N2", "--ntasks-per-node=1", "-n1"}).nodes, 2);  // map_resources refuses it
  EXPECT_EQ(resolved({"-n4", "--ntasks-per-node=2"}).nodes, 2);         // n4tpn2
  EXPECT_FALSE(resolved({"-n2", "--ntasks-per-node=2"}).nodes.has_value());
  EXPECT_EQ(resolved({"-w", "vm,vm1"}).nodes, 2);  // w_both: every node named
  EXPECT_EQ(resolved({"-w", "vm,vm1", "-n", "4"}).nodes, 2);
  EXPECT_FALSE(resolved({"-w", "vm1"}).nodes.has_value());
  SubmitOptions bad;
  EXPECT_EQ(parse_directive_words({"--nodes=3-2"}, bad).error().message,
            "--nodes=3-2: the minimum is above the maximum");
  EXPECT_EQ(parse_directive_words({"--nodes=1-x"}, bad).error().message, "--nodes=x: not a number");
}

// The GPU request's shape is kept as asked, for scontrol's TresPer* and squeue's %b.
TEST(BuildSubmission, TheGpuRequestIsKeptAsAsked) {
  const auto ask_of = [](const std::vector<std::string>& words) {
    SubmitCommand cmd;
    cmd.wrap = "true";
    cmd.options = options(words);
    auto b = build_submission(cmd, "", context());
    EXPECT_TRUE(b.has_value()) << b.error().message;
    return b ? b->request.spec.gpu_ask : GpuAsk{};
  };
  EXPECT_EQ(ask_of({}), GpuAsk{});
  EXPECT_EQ(ask_of({"--gpus=3"}), (GpuAsk{GpuAskedPer::kJob, 3}));
  EXPECT_EQ(ask_of({"-N2", "--gpus-per-node=1"}), (GpuAsk{GpuAskedPer::kNode, 1}));
  EXPECT_EQ(ask_of({"--gres=gpu:v100:2"}), (GpuAsk{GpuAskedPer::kNode, 2}));
  EXPECT_EQ(ask_of({"-n2", "--gpus-per-task=1"}), (GpuAsk{GpuAskedPer::kTask, 1}));
  EXPECT_EQ(ask_of({"--gpus=1", "--cpus-per-gpu=4", "--mem-per-gpu=1000"}),
            (GpuAsk{GpuAskedPer::kJob, 1, 4, 1000}));
}

// sbatch tells the job what it asked for (mem1000, mpc500, mpg, gpus_typed, gpn1, gpt1_n2).
TEST(BuildSubmission, RequestVariablesAsSbatchSetsThem) {
  const auto env_of = [](const std::vector<std::string>& words) {
    SubmitCommand cmd;
    cmd.wrap = "true";
    cmd.options = options(words);
    auto b = build_submission(cmd, "", context());
    EXPECT_TRUE(b.has_value()) << b.error().message;
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : b->request.program.env) {
      if (k.starts_with("SLURM_")) out[k] = v;
    }
    out.erase("SLURM_SUBMIT_HOST");
    out.erase("SLURM_SUBMIT_DIR");
    return out;
  };
  using Env = std::map<std::string, std::string>;
  EXPECT_EQ(env_of({}), Env{});
  EXPECT_EQ(env_of({"--mem=1000"}), (Env{{"SLURM_MEM_PER_NODE", "1000"}}));
  EXPECT_EQ(env_of({"--mem-per-cpu=1G"}), (Env{{"SLURM_MEM_PER_CPU", "1024"}}));
  EXPECT_EQ(env_of({"--mem-per-gpu=500", "--gpus=2"}),
            (Env{{"SLURM_MEM_PER_GPU", "500"}, {"SLURM_GPUS", "2"}}));
  EXPECT_EQ(env_of({"--gpus=v100:1"}), (Env{{"SLURM_GPUS", "v100:1"}}));
  EXPECT_EQ(env_of({"--gpus-per-node=1"}), (Env{{"SLURM_GPUS_PER_NODE", "1"}}));
  EXPECT_EQ(env_of({"--gpus-per-task=1", "-n", "2"}), (Env{{"SLURM_GPUS_PER_TASK", "1"}}));
  EXPECT_EQ(env_of({"--cpus-per-gpu=4", "--gpus=1"}),
            (Env{{"SLURM_CPUS_PER_GPU", "4"}, {"SLURM_GPUS", "1"}}));
  EXPECT_EQ(env_of({"--ntasks-per-gpu=2", "--gpus=1"}),
            (Env{{"SLURM_NTASKS_PER_GPU", "2"}, {"SLURM_GPUS", "1"}}));
  EXPECT_EQ(env_of({"--open-mode=append"}), (Env{{"SLURM_OPEN_MODE", "a"}}));
  EXPECT_EQ(env_of({"--open-mode=truncate"}), (Env{{"SLURM_OPEN_MODE", "t"}}));
  // Options passed on as sbatch passes them (hint_nomt, hint_compute, threads_pc, tps, tpc,
  // get_user_env, dist_cyclic, dist_block, dist_plane, dep_single, dep_empty, mem0).
  EXPECT_EQ(env_of({"--hint=nomultithread"}),
            (Env{{"SLURM_HINT", "nomultithread"}, {"SLURM_THREADS_PER_CORE", "1"}}));
  EXPECT_EQ(env_of({"--hint=compute_bound"}),
            (Env{{"SLURM_HINT", "compute_bound"}, {"SLURM_THREADS_PER_CORE", "1"}}));
  EXPECT_EQ(env_of({"--threads-per-core=1"}), (Env{{"SLURM_THREADS_PER_CORE", "1"}}));
  EXPECT_EQ(env_of({"-n4", "--ntasks-per-socket=2"}), (Env{{"SLURM_NTASKS_PER_SOCKET", "2"}}));
  EXPECT_EQ(env_of({"-n2", "--ntasks-per-core=1"}), (Env{{"SLURM_NTASKS_PER_CORE", "1"}}));
  EXPECT_EQ(env_of({"--get-user-env"}), (Env{{"SLURM_GET_USER_ENV", "1"}}));
  EXPECT_EQ(env_of({"-n4", "--distribution=cyclic"}), (Env{{"SLURM_DISTRIBUTION", "cyclic"}}));
  EXPECT_EQ(env_of({"-N2", "-n4", "-m", "block:block"}), (Env{{"SLURM_DISTRIBUTION", "block:block"}}));
  EXPECT_EQ(env_of({"-n4", "--distribution=plane=2"}),
            (Env{{"SLURM_DISTRIBUTION", "plane"}, {"SLURM_DIST_PLANESIZE", "2"}}));
  EXPECT_EQ(env_of({"--dependency=singleton"}), (Env{{"SLURM_JOB_DEPENDENCY", "singleton"}}));
  EXPECT_EQ(env_of({"--dependency="}), (Env{{"SLURM_JOB_DEPENDENCY", ""}}));
  EXPECT_EQ(env_of({"--mem=0"}), Env{});
  // And the submitter's nice, as SLURM_PRIO_PROCESS (plain row of tests/conformance).
  SubmitContext ctx = context();
  ctx.priority = 5;
  SubmitCommand cmd;
  cmd.wrap = "true";
  auto b = build_submission(cmd, "", ctx);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->request.program.env.back(), (wire::EnvVar{"SLURM_PRIO_PROCESS", "5"}));
}

}  // namespace
}  // namespace fairway::cli
