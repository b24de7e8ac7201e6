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

// sbatch fills fairway submit's command.
SubmitCommand submit_call(const Args& args, const SlurmInvocation& inv = {"alice", {}}) {
  auto t = translate_slurm_command("sbatch", args, inv);
  EXPECT_TRUE(t && t->call && !t->usage_error && t->fairway_args.empty())
      << (t ? t->usage_error.value_or("") : t.error().message);
  if (!t || !t->call || !std::holds_alternative<SlurmSubmitCall>(*t->call)) return {};
  return std::get<SlurmSubmitCall>(*t->call).command;
}

// squeue and scontrol show step fill fairway queue's typed options.
SlurmQueueCall queue_call(std::string_view command, const Args& args,
                          const SlurmInvocation& inv = {"alice", {}}) {
  auto t = translate_slurm_command(command, args, inv);
  EXPECT_TRUE(t) << (t ? "" : t.error().message);
  if (!t || !t->call) {
    ADD_FAILURE() << "no typed call";
    return {};
  }
  EXPECT_TRUE(t->fairway_args.empty());
  return std::get<SlurmQueueCall>(*t->call);
}

ControlOptions cancel_call(const Args& args) {
  auto t = translate_slurm_command("scancel", args, {"alice", {}});
  EXPECT_TRUE(t && t->call && !t->usage_error);
  return t && t->call ? std::get<SlurmCancelCall>(*t->call).options : ControlOptions{};
}

HistoryOptions history_call(const Args& args) {
  auto t = translate_slurm_command("sacct", args, {"alice", {}});
  EXPECT_TRUE(t && t->call && !t->usage_error);
  return t && t->call ? std::get<SlurmHistoryCall>(*t->call).options : HistoryOptions{};
}

SlurmNodesCall nodes_call(const Args& args) {
  auto t = translate_slurm_command("sinfo", args, {"alice", {}});
  EXPECT_TRUE(t && t->call && !t->usage_error);
  return t && t->call ? std::get<SlurmNodesCall>(*t->call) : SlurmNodesCall{};
}

SlurmShowCall show_call(const Args& args) {
  auto t = translate_slurm_command("scontrol", args, {"alice", {}});
  EXPECT_TRUE(t && t->call && !t->usage_error);
  return t && t->call ? std::get<SlurmShowCall>(*t->call) : SlurmShowCall{};
}

// A translation's typed call of kind T, with no usage error.
template <typename T>
T typed_call(std::string_view command, const Args& args) {
  auto t = translate_slurm_command(command, args, {"alice", {}});
  EXPECT_TRUE(t && t->call && !t->usage_error && !t->fairway_version);
  if (!t || !t->call || !std::holds_alternative<T>(*t->call)) {
    ADD_FAILURE() << "no typed call of the kind asked";
    return T{};
  }
  EXPECT_TRUE(t->fairway_args.empty());
  return std::get<T>(*t->call);
}

// What fairway's parser said of these words, as the translation says it.
std::string usage_error_of(std::string_view command, const Args& args) {
  auto t = translate_slurm_command(command, args, {"alice", {}});
  return t && t->usage_error ? *t->usage_error : "no usage error";
}

constexpr const char* kSqueueDefault = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R";

std::string error_of(std::string_view command, const Args& args) {
  auto t = translate_slurm_command(command, args, {"alice", {}});
  return t ? "translated" : t.error().message;
}

TEST(SlurmCommands, SqueueKeepsSlurmsDefaultLayoutAndSpellings) {
  QueueOptions o = queue_call("squeue", {}).options;
  EXPECT_TRUE(o.squeue_rules);
  EXPECT_EQ(o.format, kSqueueDefault);
  o = queue_call("squeue", {"--me", "-h", "-tPD,R", "--partition=gpu"}).options;
  EXPECT_EQ(o.user, "alice");
  EXPECT_TRUE(o.noheader);
  EXPECT_EQ(o.states, "PD,R");
  EXPECT_EQ(o.partition, "gpu");
  EXPECT_EQ(o.format, kSqueueDefault);
  // A layout of its own replaces the default one.
  o = queue_call("squeue", {"-o", "%i %t", "-j", "42"}).options;
  EXPECT_EQ(o.format, "%i %t");
  EXPECT_EQ(o.jobs, "42");
  o = queue_call("squeue", {"-l"}).options;
  EXPECT_TRUE(o.long_format);
  EXPECT_EQ(o.format, "");
  o = queue_call("squeue",
                 {"-A", "physics", "-w", "cn[01-02]", "-n", "x", "-r", "--start", "--json", "-S", "-p,i"})
          .options;
  EXPECT_EQ(o.accounts, "physics");
  EXPECT_EQ(o.nodes, "cn[01-02]");
  EXPECT_EQ(o.names, "x");
  EXPECT_TRUE(o.expand_arrays && o.start && o.json);
  EXPECT_EQ(o.sort, "-p,i");
  // -s has its own layout: no default -o is added.
  o = queue_call("squeue", {"-s", "-h"}).options;
  EXPECT_TRUE(o.steps && o.noheader && o.squeue_rules);
  EXPECT_EQ(o.format, "");
  EXPECT_EQ(error_of("squeue", {"-u"}), "option -u needs a value");
}

// What fairway queue's parser refused when squeue went through it, squeue still refuses in
// the same words (exit 2).
TEST(SlurmCommands, SqueueRefusesWhatDoesNotGoTogether) {
  const auto usage_error = [](const Args& args) {
    auto t = translate_slurm_command("squeue", args, {"alice", {}});
    return t && t->usage_error ? *t->usage_error : std::string("none");
  };
  EXPECT_EQ(usage_error({"--me", "-u", "bob"}), "--user: At Most 1 required but received 2");
  EXPECT_EQ(usage_error({"-o", "%i", "-O", "jobid"}), "none");  // -O's conversion refuses %i first
  EXPECT_EQ(error_of("squeue", {"-o", "%i", "-O", "jobid"}), "Invalid job format specification: %i");
  EXPECT_EQ(usage_error({"foo"}), "The following argument was not expected: foo");
  EXPECT_EQ(usage_error({"foo", "bar"}), "The following arguments were not expected: bar foo");
  EXPECT_EQ(usage_error({"-u", "a", "--user=b"}), "none");
}

// Tools read Slurm's version from `sinfo --version` (Debian's: "slurm-wlm 22.05.8").
TEST(SlurmCommands, VersionIsAnsweredHereAsSlurmWordsIt) {
  for (const auto& [command, args] : std::vector<std::pair<std::string, Args>>{{"sinfo", {"--version"}},
                                                                               {"sbatch", {"-V"}},
                                                                               {"squeue", {"-V"}},
                                                                               {"scontrol", {"version"}},
                                                                               {"srun", {"--version"}},
                                                                               {"sacct", {"--version"}}}) {
    auto t = translate_slurm_command(command, args, {"alice", {}});
    ASSERT_TRUE(t) << command;
    EXPECT_EQ(t->local_output, "slurm-fairway 22.05.8\n") << command;
  }
  // A script's own -V is the script's.
  const SubmitCommand script_v = submit_call({"job.sh", "-V"});
  EXPECT_EQ(script_v.script_path, "job.sh");
  EXPECT_EQ(script_v.script_args, (Args{"-V"}));
}

// squeue -O's named fields, as squeue 22.05 lays them out: 20 wide unless sized, '.'
// right-justifies, a suffix is written after the value (alone: no padding).
TEST(SlurmCommands, SqueueNamedFieldsBecomePercentFields) {
  EXPECT_EQ(queue_call("squeue", {"-O", "JobID:8,Name:.10,State:5,Partition"}).options.format,
            "%8i%.10j%5T%20P");
  const QueueOptions o = queue_call("squeue", {"-h", "--Format=jobid:|,NAME:|"}).options;
  EXPECT_TRUE(o.noheader);
  EXPECT_EQ(o.format, "%i|%j|");
  EXPECT_EQ(queue_call("squeue", {"-O", "JobID:6,Comment:12,Nice"}).options.format, "%6i%12k%20y");
  EXPECT_EQ(error_of("squeue", {"-O", "JobID,Bogus"}), "Invalid job format specification: Bogus");
}

// sinfo -O the same way, with sinfo's names (PartitionName: without the default's '*').
TEST(SlurmCommands, SinfoNamedFieldsBecomePercentFields) {
  EXPECT_EQ(nodes_call({"-O", "Partition:10,CPUs:.5,Nodes:|,StateLong"}).layout.format, "%10P%.5c%D|%20T");
  const SlurmNodesCall c = nodes_call({"-h", "-O", "PartitionName:|,NodeList"});
  EXPECT_TRUE(c.layout.noheader);
  EXPECT_EQ(c.layout.format, "%R|%20N");
  EXPECT_EQ(error_of("sinfo", {"-O", "Nodes,Bogus"}), "Invalid job format specification: Bogus");
}

// sinfo fills fairway nodes' layout options: its default, -s's, -N's, -l's and -R's
// layouts; --json alone is sinfo's JSON of the nodes.
TEST(SlurmCommands, SinfoFillsTheNodeLayout) {
  SlurmNodesCall c = nodes_call({});
  EXPECT_EQ(c.layout.format, "%#P %.5a %.10l %.6D %.6t %N");
  c = nodes_call({"-N", "-R", "-l", "-p", "gpu,cpu"});
  EXPECT_TRUE(c.layout.node_oriented && c.layout.time_line && !c.layout.list_reasons);
  EXPECT_EQ(c.layout.partitions, (Args{"gpu", "cpu"}));
  c = nodes_call({"-R"});
  EXPECT_EQ(c.layout.format, "%20E %9u %19H %N");
  c = nodes_call({"--json", "cn01"});
  EXPECT_TRUE(c.json);
  EXPECT_EQ(c.layout.format, "");
  EXPECT_EQ(c.names, (Args{"cn01"}));
  auto t = translate_slurm_command("sinfo", {"-o", "%P", "-O", "Partition"}, {"alice", {}});
  EXPECT_FALSE(t);  // -O's names turn -o's value too, and %P is no name
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
  EXPECT_NE(squeue->local_output->find("--clusters=VALUE  (not supported: one cluster only)"),
            std::string::npos);
  // scancel --me: the caller's jobs.
  const ControlOptions mine = cancel_call({"--me", "-t", "PD"});
  EXPECT_EQ(mine.filter.user, "alice");
  EXPECT_EQ(mine.filter.states, "PD");
  EXPECT_TRUE(mine.quiet_when_gone);
}

TEST(SlurmCommands, SbatchTakesItsInputVariablesBeforeTheCommandLine) {
  const SlurmInvocation inv{
      "alice",
      {{"SBATCH_PARTITION", "gpu"}, {"SBATCH_TIMELIMIT", "10"}, {"SBATCH_WAIT", ""}, {"SLURM_JOB_ID", "7"}}};
  const SubmitCommand batch = submit_call({"-p", "cpu", "job.sh", "-p"}, inv);
  EXPECT_EQ(batch.options.partition, "cpu");  // the command line wins
  EXPECT_EQ(batch.options.time, Duration::minutes(10));
  EXPECT_EQ(batch.options.wait, true);
  EXPECT_EQ(batch.script_path, "job.sh");
  EXPECT_EQ(batch.script_args, (Args{"-p"}));
  // A batch job's output goes where Slurm's would when nothing names a file.
  EXPECT_EQ(batch.options.default_output, "slurm-%j.out");
  EXPECT_EQ(batch.options.output, std::nullopt);
  EXPECT_EQ(submit_call({"-o", "out.txt", "job.sh"}).options.output, "out.txt");
  EXPECT_EQ(submit_call({"job.sh"}, {"alice", {{"SBATCH_PARTITION", "gpu"}}}).options.partition, "gpu");
  EXPECT_EQ(fairway_args("srun", {"-N2", "hostname"}), (Args{"run", "-N2", "hostname"}));
  EXPECT_EQ(fairway_args("salloc", {"-n", "4"}), (Args{"alloc", "-n", "4"}));
  // env_excl, env_gpt: the value is the option's, so sbatch judges it (SBATCH_EXCLUSIVE=1 is
  // refused as --exclusive=1 is).
  const SlurmInvocation values{
      "alice", {{"SBATCH_EXCLUSIVE", "1"}, {"SBATCH_GPUS_PER_TASK", "1"}, {"SBATCH_NO_REQUEUE", "1"}}};
  auto refused = translate_slurm_command("sbatch", {"job.sh"}, values);
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->usage_error.value_or("").find("--exclusive=1"), std::string::npos)
      << refused->usage_error.value_or("(none)");
  const SubmitCommand gpt =
      submit_call({"-n2", "job.sh"}, {"alice", {{"SBATCH_GPUS_PER_TASK", "1"}, {"SBATCH_NO_REQUEUE", "1"}}});
  EXPECT_EQ(gpt.options.gpus_per_task, (GpuCount{"", 1}));
  EXPECT_EQ(gpt.options.requeue, false);
  // There is no option to set the default output: it is sbatch's alone.
  auto no_such = translate_slurm_command("sbatch", {"--default-output=x", "job.sh"}, {"alice", {}});
  ASSERT_TRUE(no_such);
  EXPECT_TRUE(no_such->usage_error.has_value());
}

TEST(SlurmCommands, ScancelAndSacctMapTheirOptions) {
  ControlOptions c = cancel_call({"-f", "--jobname=x", "-s", "USR1", "42_7"});
  EXPECT_EQ(c.filter.name, "x");
  EXPECT_EQ(c.signal, "USR1");
  EXPECT_EQ(c.ids, (Args{"42_7"}));
  EXPECT_TRUE(c.quiet_when_gone && !c.confirm && !c.batch);
  // Slurm's scancel speaks of a job that is gone only with -v.
  c = cancel_call({"-v", "42"});
  EXPECT_FALSE(c.quiet_when_gone);
  c = cancel_call({"-i", "42", "--", "43"});
  EXPECT_TRUE(c.quiet_when_gone && c.confirm);
  EXPECT_EQ(c.ids, (Args{"42", "43"}));
  HistoryOptions h = history_call({"-X", "-j", "42", "-P", "--format=JobID,State"});
  EXPECT_TRUE(h.live && h.sacct_table && h.parsable && !h.batch_steps);
  EXPECT_EQ(h.jobs, "42");
  EXPECT_EQ(h.format, "JobID,State");
  // Bundled flags, the last taking the next word (Snakemake: sacct -nu "$USER" -o Account%20).
  h = history_call({"-nu", "alice", "-o", "Account%20"});
  EXPECT_TRUE(h.live && h.sacct_table && h.batch_steps && h.noheader);
  EXPECT_EQ(h.user, "alice");
  EXPECT_EQ(h.format, "Account%20");
}

// What fairway's parser refused when scancel and sacct went through it, they still refuse
// in the same words (exit 2).
TEST(SlurmCommands, ScancelAndSacctRefuseWhatDoesNotGoTogether) {
  const auto usage_error = [](std::string_view command, const Args& args) {
    auto t = translate_slurm_command(command, args, {"alice", {}});
    return t && t->usage_error ? *t->usage_error : std::string("none");
  };
  EXPECT_EQ(usage_error("scancel", {"-u", "bob", "--me"}), "--user: At Most 1 required but received 2");
  EXPECT_EQ(usage_error("scancel", {"-n", "x", "--jobname", "y"}),
            "--name: At Most 1 required but received 2");
  EXPECT_EQ(usage_error("sacct", {"42"}), "The following argument was not expected: 42");
  EXPECT_EQ(usage_error("sacct", {"-j", "1", "-j", "2"}), "none");
}

// Options given twice, as Slurm's commands read them: list values add up, others the last
// wins; sacct's -M/--clusters names the one cluster there is (workflow engines pass "all").
TEST(SlurmCommands, RepeatedOptionsAndClusters) {
  EXPECT_EQ(history_call({"-X", "-j", "1", "-j", "2", "--jobs=3"}).jobs, "1,2,3");
  EXPECT_EQ(history_call({"-X", "-S", "2026-01-01", "-S", "2026-02-01"}).start, "2026-02-01");
  EXPECT_EQ(history_call({"-X", "--clusters", "all", "-j", "4"}).jobs, "4");
  EXPECT_EQ(history_call({"-X", "-M", "twonode", "-j", "4"}).jobs, "4");
  const QueueOptions o = queue_call("squeue", {"-u", "a", "--user=b", "-t", "R", "-t", "PD"}).options;
  EXPECT_EQ(o.user, "a,b");
  EXPECT_EQ(o.states, "R,PD");
  EXPECT_EQ(o.format, kSqueueDefault);
}

TEST(SlurmCommands, SprioAndSshareAskForSlurmsTables) {
  const PriorityOptions prio = typed_call<SlurmPriorityCall>("sprio", {"-l", "-h", "-u", "bob"}).options;
  EXPECT_TRUE(prio.sprio && prio.long_format && prio.noheader && !prio.raw && !prio.json);
  EXPECT_EQ(prio.user, "bob");
  EXPECT_EQ(error_of("sprio", {"-n"}),
            "--norm is not supported: fairway priority -n gives each term before its weight");
  SharesOptions shares = typed_call<SlurmSharesCall>("sshare", {"-a", "-P", "-A", "science"}).options;
  EXPECT_TRUE(shares.sshare && shares.all_users && shares.parsable && !shares.noheader);
  EXPECT_EQ(shares.account, "science");
  shares = typed_call<SlurmSharesCall>("sshare", {"-h"}).options;
  EXPECT_TRUE(shares.sshare && shares.noheader && !shares.all_users);
  EXPECT_EQ(error_of("sshare", {"-l"}),
            "--long is not supported: the default layout only (no LevelFS or TRES minutes)");
  // Bare words, and after "--" every word (fairway's own --sprio among them), as fairway's
  // parser refused them.
  EXPECT_EQ(usage_error_of("sprio", {"x", "y"}), "The following arguments were not expected: y x");
  EXPECT_EQ(usage_error_of("sprio", {"--", "-u", "bob"}),
            "The following arguments were not expected: --sprio bob --user");
  EXPECT_EQ(usage_error_of("sshare", {"--", "-a"}),
            "The following arguments were not expected: --sshare --all-users");
}

TEST(SlurmCommands, SacctmgrListsAreSharesLists) {
  SharesOptions o = typed_call<SlurmSharesCall>("sacctmgr", {"-snP", "list", "user", "alice"}).options;
  EXPECT_EQ(o.list, "user-associations");
  EXPECT_EQ(o.user, "alice");
  EXPECT_TRUE(o.parsable && o.noheader && !o.sshare);
  o = typed_call<SlurmSharesCall>("sacctmgr", {"show", "account", "name=science", "format=Account"}).options;
  EXPECT_EQ(o.list, "account");
  EXPECT_EQ(o.account, "science");
  EXPECT_EQ(o.format, "Account");
  EXPECT_EQ(usage_error_of("sacctmgr", {"list", "user", "alice", "user=bob"}),
            "--user: At Most 1 required but received 2");
  EXPECT_EQ(usage_error_of("sacctmgr", {"list", "user", "account=a", "account=b", "format=x", "format=y"}),
            "--account: At Most 1 required but received 2");
}

TEST(SlurmCommands, ScontrolShowStepListsRunningSteps) {
  QueueOptions o = queue_call("scontrol", {"show", "step", "42.0"}).options;
  EXPECT_TRUE(o.steps && o.scontrol_steps && !o.squeue_rules);
  EXPECT_EQ(o.step_id, "42.0");
  o = queue_call("scontrol", {"show", "steps"}).options;
  EXPECT_TRUE(o.steps && o.scontrol_steps);
  EXPECT_EQ(o.step_id, "");
}

TEST(SlurmCommands, ScontrolWordsAreCaseInsensitive) {
  using What = SlurmShowCall::What;
  SlurmShowCall c = show_call({"-dd", "SHOW", "Job", "42"});
  EXPECT_EQ(c.what, What::kJob);
  EXPECT_EQ(c.names, (Args{"42"}));
  c = show_call({"show", "jobid", "-dd", "42"});
  EXPECT_EQ(c.what, What::kJob);
  EXPECT_EQ(c.names, (Args{"42"}));
  c = show_call({"show", "partitions"});
  EXPECT_EQ(c.what, What::kPartition);
  EXPECT_TRUE(c.names.empty());
  c = show_call({"show", "job"});
  EXPECT_EQ(c.what, What::kJob);
  EXPECT_TRUE(c.names.empty() && !c.json);
  c = show_call({"show", "nodes"});
  EXPECT_EQ(c.what, What::kNode);
  c = show_call({"show", "job", "42", "--json"});
  EXPECT_TRUE(c.json);
  auto t = translate_slurm_command("scontrol", {"show", "job", "1", "2", "3"}, {"alice", {}});
  ASSERT_TRUE(t && t->usage_error);
  EXPECT_EQ(*t->usage_error, "The following arguments were not expected: 3 2");
  c = show_call({"show", "reservation", "r1", "--json"});
  EXPECT_EQ(c.what, What::kReservation);
  EXPECT_EQ(c.names, (Args{"r1"}));
  EXPECT_TRUE(c.json);
  EXPECT_EQ(show_call({"show", "config", "ignored"}).what, What::kConfig);
  const auto update = typed_call<SlurmUpdateCall>("scontrol", {"update", "JobId=42", "TimeLimit=1:00:00"});
  EXPECT_EQ(update.words, (Args{"job", "42", "TimeLimit=1:00:00"}));
  EXPECT_FALSE(update.json);
  auto node = typed_call<SlurmNodeControlCall>(
      "scontrol", {"update", "NodeName=cn01", "State=DRAIN", "Reason=disk failing"});
  EXPECT_EQ(node.action, wire::NodeAction::kDrain);
  EXPECT_EQ(node.nodes, (Args{"cn01"}));
  EXPECT_EQ(node.reason, "disk failing");
  node = typed_call<SlurmNodeControlCall>("scontrol", {"update", "nodename=cn01", "state=resume"});
  EXPECT_EQ(node.action, wire::NodeAction::kResume);
  EXPECT_EQ(node.nodes, (Args{"cn01"}));
  const auto hold = typed_call<SlurmControlCall>("scontrol", {"uhold", "42", "--json"});
  EXPECT_EQ(hold.action, wire::JobAction::kHold);
  EXPECT_EQ(hold.options.ids, (Args{"42"}));
  EXPECT_TRUE(hold.options.json);
  EXPECT_EQ(typed_call<SlurmControlCall>("scontrol", {"requeuehold", "7"}).action, wire::JobAction::kRequeue);
  EXPECT_EQ(typed_call<SlurmControlCall>("scontrol", {"release", "--", "-x"}).options.ids, (Args{"-x"}));
  EXPECT_EQ(error_of("scontrol", {"update", "NodeName=cn01", "State=DRAIN"}),
            "update node: State=drain needs a Reason=");
  EXPECT_EQ(error_of("scontrol", {"reconfigure"}),
            "reconfigure is not supported (show, hold, release, requeue, update)");
}

// scontrol's job and node commands refuse what fairway's parser refused when they went
// through it, in its words and order.
TEST(SlurmCommands, ScontrolControlRefusesAsFairwaysParser) {
  EXPECT_EQ(usage_error_of("scontrol", {"hold"}), "ids is required");
  EXPECT_EQ(usage_error_of("scontrol", {"hold", "-x"}), "ids is required");
  EXPECT_EQ(usage_error_of("scontrol", {"release", "42", "-x", "--y"}),
            "The following arguments were not expected: --y -x");
  EXPECT_EQ(usage_error_of("scontrol", {"update", "JobId=-x"}),
            "The following argument was not expected: -x");
  EXPECT_EQ(usage_error_of("scontrol", {"update", "NodeName=-x", "State=resume"}), "nodes is required");
  EXPECT_EQ(usage_error_of("scontrol", {"show", "reservation", "-x"}),
            "The following argument was not expected: -x");
  EXPECT_EQ(typed_call<SlurmControlCall>("scontrol", {"hold", "-5"}).options.ids, (Args{"-5"}));
  auto t = translate_slurm_command("scontrol", {"hold", "42", "--version"}, {"alice", {}});
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->fairway_version);
  EXPECT_FALSE(t->usage_error);
}

TEST(SlurmCommands, HostListsAreAnsweredHere) {
  auto t = translate_slurm_command("scontrol", {"show", "hostnames", "cn[01-03],gpu1"}, {"alice", {}});
  ASSERT_TRUE(t && t->local_output);
  EXPECT_EQ(*t->local_output, "cn01\ncn02\ncn03\ngpu1\n");
  t = translate_slurm_command("scontrol", {"show", "hostnames"},
                              {"alice", {{"SLURM_JOB_NODELIST", "n[7-8]"}}});
  ASSERT_TRUE(t && t->local_output);
  EXPECT_EQ(*t->local_output, "n7\nn8\n");
  t = translate_slurm_command("scontrol", {"show", "hostlist", "cn01,cn02,cn03"}, {"alice", {}});
  ASSERT_TRUE(t && t->local_output);
  EXPECT_EQ(*t->local_output, "cn[01-03]\n");
  EXPECT_EQ(error_of("scontrol", {"show", "hostnames"}),
            "show hostnames: no host list given and SLURM_JOB_NODELIST is not set");
  EXPECT_EQ(error_of("sfoo", {}), "'sfoo' is not a Slurm command this front-end knows");
}

}  // namespace
}  // namespace fairway::cli

namespace fairway::cli {
namespace {

TEST(SlurmCommands, SdiagAndSqueueIterateTranslateAsSlurmsOptions) {
  EXPECT_FALSE(typed_call<SlurmDiagCall>("sdiag", {}).json);
  EXPECT_FALSE(typed_call<SlurmDiagCall>("sdiag", {"-a", "-t"}).json);
  EXPECT_TRUE(typed_call<SlurmDiagCall>("sdiag", {"--json"}).json);
  EXPECT_EQ(usage_error_of("sdiag", {"--"}), "The following argument was not expected: --sdiag");
  EXPECT_EQ(usage_error_of("sdiag", {"--json", "--"}), "no usage error");
  EXPECT_EQ(error_of("sdiag", {"-r"}),
            "--reset is not supported: the counts run from the coordinator's start");
  const SlurmQueueCall every = queue_call("squeue", {"-i", "5", "-h"});
  EXPECT_EQ(every.iterate_s, 5);
  EXPECT_TRUE(every.options.noheader);
  EXPECT_EQ(every.options.format, kSqueueDefault);
  EXPECT_EQ(error_of("squeue", {"--iterate=0"}), "--iterate=0\n");
  EXPECT_EQ(error_of("squeue", {"-i", "2x"}), "--iterate=2x\n");
}

}  // namespace
}  // namespace fairway::cli
