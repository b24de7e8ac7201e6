#include "client/api/submit_options.h"
#include "client/api/submit_option_table.h"

#include <csignal>

#include <gtest/gtest.h>

namespace fairway::cli {
namespace {

SubmitOptions parse_ok(const std::vector<std::string>& words) {
  SubmitOptions o;
  auto st = parse_directive_words(words, o);
  EXPECT_TRUE(st.has_value()) << st.error().message;
  return o;
}

std::string parse_error(const std::vector<std::string>& words) {
  SubmitOptions o;
  auto st = parse_directive_words(words, o);
  if (st) return "(accepted)";
  return st.error().message;
}

TEST(SubmitOptions, EveryOptionInEverySpelling) {
  SubmitOptions o = parse_ok({"-p",
                              "gpu",
                              "-Aphys",
                              "--qos=long",
                              "--ntasks",
                              "8",
                              "-N2",
                              "-c",
                              "4",
                              "--ntasks-per-node=4",
                              "--gpus=a100:4",
                              "--gpus-per-node",
                              "2",
                              "--gres=gpu:v100:1",
                              "-t",
                              "2-00:00:00",
                              "-J",
                              "name",
                              "-o",
                              "out",
                              "-eerr",
                              "--no-requeue",
                              "--hold",
                              "-D",
                              "/tmp"});
  EXPECT_EQ(o.partition, "gpu");
  EXPECT_EQ(o.account, "phys");
  EXPECT_EQ(o.qos, "long");
  EXPECT_EQ(o.ntasks, 8);
  EXPECT_EQ(o.nodes, 2);
  EXPECT_EQ(o.cpus_per_task, 4);
  EXPECT_EQ(o.ntasks_per_node, 4);
  EXPECT_EQ(o.gpus, (GpuCount{"a100", 4}));
  EXPECT_EQ(o.gpus_per_node, (GpuCount{"", 2}));
  EXPECT_EQ(o.gres, (GpuCount{"v100", 1}));
  EXPECT_EQ(o.time, Duration::days(2));
  EXPECT_EQ(o.job_name, "name");
  EXPECT_EQ(o.output, "out");
  EXPECT_EQ(o.error, "err");
  EXPECT_EQ(o.requeue, false);
  EXPECT_EQ(o.hold, true);
  EXPECT_EQ(o.chdir, "/tmp");
  EXPECT_TRUE(o.warnings.empty());
}

TEST(SubmitOptions, LaterValuesWinAndRequeueToggles) {
  SubmitOptions o = parse_ok({"-n", "2", "--ntasks=3", "--no-requeue", "--requeue", "-t", "90"});
  EXPECT_EQ(o.ntasks, 3);
  EXPECT_EQ(o.requeue, true);
  EXPECT_EQ(o.time, Duration::minutes(90));
}

TEST(SubmitOptions, GresForms) {
  EXPECT_EQ(parse_ok({"--gres=gpu"}).gres, (GpuCount{"", 1}));
  EXPECT_EQ(parse_ok({"--gres=gpu:3"}).gres, (GpuCount{"", 3}));
  EXPECT_EQ(parse_ok({"--gres", "gpu:a100:2"}).gres, (GpuCount{"a100", 2}));
  EXPECT_EQ(parse_error({"--gres=mic:2"}), "--gres=mic:2: only gpu[:TYPE]:N is supported");
  EXPECT_EQ(parse_error({"--gres=gpu:a100:x"}),
            "--gres=gpu:a100:x: expected gpu[:TYPE]:N with N a positive number");
  EXPECT_EQ(parse_error({"--gres=gpu:0"}), "--gres=gpu:0: expected gpu[:TYPE]:N with N a positive number");
}

TEST(SubmitOptions, MemorySizes) {
  EXPECT_EQ(parse_ok({"--mem=4G"}).mem_per_node_mb, 4096);
  EXPECT_EQ(parse_ok({"--mem=500"}).mem_per_node_mb, 500);
  EXPECT_EQ(parse_ok({"--mem=500M"}).mem_per_node_mb, 500);
  EXPECT_EQ(parse_ok({"--mem=1500K"}).mem_per_node_mb, 2);
  EXPECT_EQ(parse_ok({"--mem=2T"}).mem_per_node_mb, 2 * 1024 * 1024);
  EXPECT_EQ(parse_ok({"--mem-per-cpu=2GB"}).mem_per_cpu_mb, 2048);
  EXPECT_EQ(parse_ok({"--mem=0"}).mem_per_node_mb, 0);
  EXPECT_TRUE(parse_ok({"--mem=4G"}).warnings.empty());
  EXPECT_EQ(parse_error({"--mem=lots"}), "--mem=lots: expected a size such as 500M, 4G or 4000 (MiB)");
  EXPECT_EQ(parse_error({"--mem=4X"}), "--mem=4X: unknown unit \"X\" (K, M, G or T)");
  EXPECT_EQ(parse_error({"--mem-per-cpu=99999999999T"}), "--mem-per-cpu=99999999999T: too large");
}

TEST(SubmitOptions, BadValuesNameOptionAndValue) {
  EXPECT_EQ(parse_error({"-n", "0"}), "--ntasks=0: must be at least 1");
  EXPECT_EQ(parse_error({"--nodes=-2"}), "--nodes=-2: must be at least 1");
  EXPECT_EQ(parse_error({"-c", "four"}), "--cpus-per-task=four: not a number");
  EXPECT_EQ(parse_error({"-n", "4x"}), "--ntasks=4x: not a number");
  EXPECT_EQ(parse_error({"-n", "99999999999"}), "--ntasks=99999999999: number too large");
  EXPECT_EQ(parse_error({"--gpus=:2"}), "--gpus=:2: expected N or TYPE:N");
  EXPECT_NE(parse_error({"-t", "soon"}).find("--time=soon: "), std::string::npos);
  EXPECT_TRUE(parse_ok({"-t", "0"}).time->is_infinite());  // sbatch(1): 0 is no limit
  EXPECT_TRUE(parse_ok({"--time=UNLIMITED"}).time->is_infinite());
  EXPECT_EQ(parse_error({"-p", ""}), "--partition: empty value");
}

TEST(SubmitOptions, UnknownDirectivesAreSkippedWithAWarning) {
  SubmitOptions o = parse_ok({"-n", "2", "--frobnicate", "3", "-p", "x"});
  EXPECT_EQ(o.ntasks, 2);
  EXPECT_FALSE(o.partition.has_value());  // the rest of the line went with it
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_EQ(o.warnings[0], "unknown directive \"--frobnicate 3 -p x\" ignored");
  EXPECT_EQ(parse_ok({"-y"}).warnings.at(0), "unknown directive \"-y\" ignored");
}

TEST(SubmitOptions, SlurmScriptOptions) {
  SubmitOptions o = parse_ok({"--comment=run 3", "--open-mode=append", "--export=NONE", "-d",
                              "afterok:12:13,singleton", "--kill-on-invalid-dep=yes", "--begin=now+1hour",
                              "--nice", "--mail-type=END,FAIL", "--mail-user=a@b.c", "--mem-per-cpu=2G",
                              "--exclusive", "--get-user-env", "--hint=nomultithread", "-Q"});
  EXPECT_EQ(o.comment, "run 3");
  EXPECT_EQ(o.open_append, true);
  EXPECT_EQ(o.export_spec, "NONE");
  ASSERT_TRUE(o.dependency);
  ASSERT_EQ(o.dependency->clauses.size(), 2u);
  EXPECT_EQ(o.dependency->clauses[0], (DependencyClause{DependencyType::kAfterOk, {JobId(12), JobId(13)}}));
  EXPECT_EQ(o.dependency->clauses[1].type, DependencyType::kSingleton);
  EXPECT_FALSE(o.dependency->any);
  EXPECT_EQ(o.kill_on_invalid_dep, true);
  EXPECT_EQ(o.begin, "now+1hour");
  EXPECT_EQ(o.nice, 100);
  EXPECT_EQ(parse_ok({"--nice=-5"}).nice, -5);
  EXPECT_TRUE(o.warnings.empty());
  EXPECT_EQ(o.exclusive, true);
  EXPECT_EQ(o.mail_events, kMailEnd | kMailFail);
  EXPECT_EQ(o.mail_user, "a@b.c");
}

TEST(SubmitOptions, MailTypesAndAddresses) {
  EXPECT_EQ(parse_ok({"--mail-type=ALL"}).mail_events, kMailBegin | kMailEnd | kMailFail | kMailRequeue);
  EXPECT_EQ(parse_ok({"--mail-type=BEGIN,NONE"}).mail_events, 0);
  SubmitOptions t = parse_ok({"--mail-type=END,TIME_LIMIT_80,TIME_LIMIT"});
  EXPECT_EQ(t.mail_events, kMailEnd | kMailTimeLimit80 | kMailTimeLimit);
  EXPECT_TRUE(t.warnings.empty());
  SubmitOptions d = parse_ok({"--mail-type=INVALID_DEPEND,TIME_LIMIT_50,TIME_LIMIT_90"});
  EXPECT_EQ(d.mail_events, kMailTimeLimit50 | kMailTimeLimit90);
  EXPECT_EQ(d.warnings,
            std::vector<std::string>{"--mail-type=INVALID_DEPEND ignored: no mail is sent for it yet"});
  EXPECT_EQ(parse_error({"--mail-type=SOMETIMES"}),
            "--mail-type=SOMETIMES: unknown event \"SOMETIMES\" (NONE, BEGIN, END, FAIL, REQUEUE, ALL, ...)");
  EXPECT_EQ(parse_error({"--mail-user=a@b.c\nBcc: x"}), "--mail-user=a@b.c\nBcc: x: not a mail address");
}

TEST(SubmitOptions, SignalBeforeTheTimeLimit) {
  EXPECT_EQ(parse_ok({"--signal=B:USR1@90"}).signal, (WarningSignal{SIGUSR1, 90, true}));
  EXPECT_EQ(parse_ok({"--signal=SIGUSR2"}).signal, (WarningSignal{SIGUSR2, 60, false}));
  EXPECT_EQ(parse_ok({"--signal=R:10@0"}).signal, (WarningSignal{10, 0, false}));
  EXPECT_EQ(parse_error({"--signal=USR3"}), "--signal=USR3: unknown signal \"USR3\"");
  EXPECT_EQ(parse_error({"--signal=99"}), "--signal=99: signal numbers are 1 to 64");
  EXPECT_EQ(parse_error({"--signal=USR1@soon"}),
            "--signal=USR1@soon: the time after @ is 0 to 65535 seconds");
  EXPECT_EQ(parse_error({"--signal=X:USR1"}), "--signal=X:USR1: the prefix is B: (batch script only) or R:");
}

TEST(SubmitOptions, NodeSelection) {
  SubmitOptions o = parse_ok({"-w", "cn[01-03],gpu7", "--exclude=cn02", "-C", "skylake&ib"});
  EXPECT_EQ(o.nodelist, (std::vector<std::string>{"cn01", "cn02", "cn03", "gpu7"}));
  EXPECT_EQ(o.exclude, (std::vector<std::string>{"cn02"}));
  EXPECT_EQ(o.constraint, "skylake&ib");
  EXPECT_NE(parse_error({"-w", "cn[3-1]"}).find("--nodelist=cn[3-1]: "), std::string::npos);
  EXPECT_EQ(parse_error({"--exclusive=maybe"}),
            "--exclusive=maybe: Invalid --exclusive specification (expected no value, exclusive, "
            "oversubscribe, user or mcs)");
  EXPECT_EQ(parse_ok({"--exclusive=exclusive"}).exclusive, true);
  EXPECT_EQ(parse_ok({"--exclusive", "--exclusive=oversubscribe"}).exclusive, false);
}

TEST(SubmitOptions, OptionsThatWouldRunTheJobWronglyAreRefused) {
  EXPECT_EQ(parse_error({"--licenses=matlab"}), "--licenses: licenses are not scheduled yet");
  // --array is taken: indices, steps and the running-task limit, in both spellings.
  EXPECT_EQ(format_array_spec(*parse_ok({"--array=1-100,200,300-400:2%10"}).array), "1-100,200,300-400:2%10");
  EXPECT_EQ(parse_ok({"-a", "0-3"}).array->count(), 4);
  EXPECT_EQ(parse_error({"--array=1-10%0"}),
            "--array: the running-task limit '%0' in '1-10%0' is not a whole number >= 1");
  EXPECT_EQ(parse_error({"--uid=0"}), "--uid: jobs run as the user who submits them");
  EXPECT_EQ(parse_error({"--open-mode=sometimes"}), "--open-mode=sometimes: expected append or truncate");
  EXPECT_EQ(parse_error({"--nice=lots"}),
            "--nice=lots: expected a whole number from -2147483645 to 2147483645");
  EXPECT_EQ(parse_error({"--kill-on-invalid-dep=maybe"}), "--kill-on-invalid-dep=maybe: expected yes or no");
}

// srun's own options reach fairway run (mpirun starts its daemons with -K and --mpi=none).
TEST(SubmitOptions, SrunsOwnOptionsAreReadForTheStep) {
  auto cmd = parse_submit_command_line(
      {"--kill-on-bad-exit", "--mpi=none", "--cpu-bind=cores", "-m", "cyclic", "prog"});
  ASSERT_TRUE(cmd) << cmd.error().message;
  EXPECT_EQ(cmd->kill_on_bad_exit, true);
  EXPECT_EQ(cmd->mpi, "none");
  EXPECT_EQ(cmd->cpu_bind, "cores");
  EXPECT_EQ(cmd->distribution, "cyclic");
  EXPECT_EQ(cmd->script_path, "prog");
  EXPECT_EQ(parse_submit_command_line({"--kill-on-bad-exit=0", "prog"})->kill_on_bad_exit, false);
  EXPECT_EQ(parse_submit_command_line({"-K", "prog"})->kill_on_bad_exit, true);
  EXPECT_EQ(parse_submit_command_line({"--kill-on-bad-exit=2", "prog"}).error().message,
            "--kill-on-bad-exit=2: expected 0 or 1");
  // In a batch script they are Slurm's and harmless: the job's sruns read their own.
  EXPECT_TRUE(parse_ok({"--kill-on-bad-exit", "--cpu-bind=cores", "--distribution=block"}).warnings.empty());
}

// Every long option of Slurm 22.05's sbatch, srun and salloc (their man pages) is known:
// done, accepted or refused with the reason, never "unknown", which a script would skip.
TEST(SubmitOptions, EverySlurmOptionHasAStatus) {
  for (const std::string_view name : {
           "accel-bind",
           "account",
           "acctg-freq",
           "array",
           "batch",
           "bb",
           "bbf",
           "bcast",
           "bcast-exclude",
           "begin",
           "bell",
           "chdir",
           "cluster-constraint",
           "clusters",
           "comment",
           "compress",
           "constraint",
           "container",
           "contiguous",
           "core-spec",
           "cores-per-socket",
           "cpu-bind",
           "cpu-freq",
           "cpus-per-gpu",
           "cpus-per-task",
           "deadline",
           "delay-boot",
           "dependency",
           "disable-status",
           "distribution",
           "epilog",
           "error",
           "exact",
           "exclude",
           "exclusive",
           "export",
           "export-file",
           "extra-node-info",
           "get-user-env",
           "gid",
           "gpu-bind",
           "gpu-freq",
           "gpus",
           "gpus-per-node",
           "gpus-per-socket",
           "gpus-per-task",
           "gres",
           "gres-flags",
           "help",
           "het-group",
           "hint",
           "ignore-pbs",
           "immediate",
           "input",
           "job-name",
           "jobid",
           "kill-command",
           "kill-on-bad-exit",
           "kill-on-invalid-dep",
           "label",
           "licenses",
           "mail-type",
           "mail-user",
           "mcs-label",
           "mem",
           "mem-bind",
           "mem-per-cpu",
           "mem-per-gpu",
           "mincpus",
           "mpi",
           "msg-timeout",
           "multi-prog",
           "network",
           "nice",
           "no-allocate",
           "no-bell",
           "no-kill",
           "no-requeue",
           "no-shell",
           "nodefile",
           "nodelist",
           "nodes",
           "ntasks",
           "ntasks-per-core",
           "ntasks-per-gpu",
           "ntasks-per-node",
           "tasks-per-node",
           "ntasks-per-socket",
           "open-mode",
           "output",
           "overcommit",
           "overlap",
           "oversubscribe",
           "parsable",
           "partition",
           "power",
           "prefer",
           "preserve-env",
           "priority",
           "profile",
           "prolog",
           "propagate",
           "pty",
           "qos",
           "quiet",
           "quit-on-interrupt",
           "reboot",
           "relative",
           "requeue",
           "reservation",
           "resv-ports",
           "send-libs",
           "signal",
           "slurmd-debug",
           "sockets-per-node",
           "spread-job",
           "switches",
           "task-epilog",
           "task-prolog",
           "test-only",
           "thread-spec",
           "threads",
           "threads-per-core",
           "time",
           "time-min",
           "tmp",
           "uid",
           "unbuffered",
           "use-min-nodes",
           "verbose",
           "wait",
           "wait-all-nodes",
           "wckey",
           "wrap",
           "x11",
       }) {
    EXPECT_NE(sbatch_options::find_long(name), nullptr) << name;
  }
  EXPECT_EQ(parse_error({"--gpus-per-socket=1"}),
            "--gpus-per-socket: GPUs are asked per job, per node or per task here (-G, --gpus-per-node, "
            "--gpus-per-task, --gres)");
  EXPECT_EQ(parse_error({"--mpi=pmix"}), "--mpi is not allowed in a job script");
  EXPECT_EQ(parse_error({"-F", "hosts"}), "--nodefile: name the nodes with -w/--nodelist");
  EXPECT_EQ(parse_ok({"--time-min=10"}).warnings,
            (std::vector<std::string>{"--time-min=10 ignored: the job runs with its whole --time"}));
  EXPECT_TRUE(parse_ok({"--exact", "-u", "--overlap", "-v"}).warnings.empty());
}

TEST(DependencyOption, Grammar) {
  auto any = parse_dependency_option("afterany:4?afternotok:5:6");
  ASSERT_TRUE(any);
  EXPECT_TRUE(any->any);
  ASSERT_EQ(any->clauses.size(), 2u);
  EXPECT_EQ(any->clauses[1], (DependencyClause{DependencyType::kAfterNotOk, {JobId(5), JobId(6)}}));
  auto bare = parse_dependency_option("17");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->clauses[0], (DependencyClause{DependencyType::kAfterAny, {JobId(17)}}));
  EXPECT_EQ(parse_dependency_option("after:3").value().clauses[0].type, DependencyType::kAfter);
  const auto error = [](std::string_view t) { return parse_dependency_option(t).error().message; };
  EXPECT_EQ(error("afterok:1,afterany:2?singleton"),
            "--dependency=afterok:1,afterany:2?singleton: ',' (all of) and '?' (any of) cannot be mixed");
  EXPECT_EQ(error("afterok"), "--dependency=afterok: afterok: no job ids");
  EXPECT_EQ(error("afterok:x"), "--dependency=afterok:x: bad job id \"x\"");
  EXPECT_EQ(error("afterok:0"), "--dependency=afterok:0: bad job id \"0\"");
  EXPECT_EQ(error("afterok:1:"), "--dependency=afterok:1:: bad job id \"\"");
  EXPECT_EQ(error("before:1"),
            "--dependency=before:1: unknown dependency type \"before\" (after, afterany, afterok, "
            "afternotok, singleton)");
  EXPECT_EQ(error("singleton:3"), "--dependency=singleton:3: singleton takes no job ids");
  // An array's task: kept aside for the CLI to ask the coordinator its id.
  auto task = parse_dependency_option("afterok:12_3:15,afterany:7_0");
  ASSERT_TRUE(task) << task.error().message;
  EXPECT_EQ(task->clauses[0], (DependencyClause{DependencyType::kAfterOk, {JobId(15)}}));
  EXPECT_TRUE(task->clauses[1].jobs.empty());
  EXPECT_EQ(task->tasks, (std::vector<DependencyTaskRef>{{0, JobId(12), 3}, {1, JobId(7), 0}}));
  EXPECT_EQ(error("afterok:12_x"),
            "--dependency=afterok:12_x: bad array task \"12_x\" (ARRAY_INDEX, e.g. 12_3)");
  EXPECT_EQ(error("afterok:_3"), "--dependency=afterok:_3: bad array task \"_3\" (ARRAY_INDEX, e.g. 12_3)");
  EXPECT_EQ(error("after:5+10"), "--dependency=after:5+10: delays (\"5+10\") are not supported yet");
  EXPECT_EQ(error("aftercorr:5"),
            "--dependency=aftercorr:5: aftercorr is not supported yet (it needs job arrays)");
  EXPECT_EQ(error("afterok:1,,afterok:2"), "--dependency=afterok:1,,afterok:2: empty clause");
}

TEST(SubmitOptions, StructuralErrors) {
  EXPECT_EQ(parse_submit_command_line({"--frobnicate=3", "x.sh"}).error().message,
            "unknown option \"--frobnicate=3\"");
  EXPECT_EQ(parse_submit_command_line({"-y", "x.sh"}).error().message, "unknown option \"-y\"");
  EXPECT_EQ(parse_error({"-p"}), "--partition needs a value");
  EXPECT_EQ(parse_error({"--hold=yes"}), "--hold takes no value (got \"--hold=yes\")");
  EXPECT_EQ(parse_error({"gpu"}), "unexpected word \"gpu\" (expected an option)");
  EXPECT_EQ(parse_error({"--wrap=ls"}), "--wrap is not allowed in a job script");
}

TEST(SubmitOptions, OverlayKeepsUnsetFields) {
  SubmitOptions base = parse_ok({"-p", "batch", "-n", "4", "--mem=1G"});
  SubmitOptions over = parse_ok({"-n", "8", "--hold"});
  base.overlay(over);
  EXPECT_EQ(base.partition, "batch");
  EXPECT_EQ(base.ntasks, 8);
  EXPECT_EQ(base.hold, true);
  EXPECT_EQ(base.mem_per_node_mb, 1024);
  // --mem-per-cpu on the command line replaces a script's --mem.
  base.overlay(parse_ok({"--mem-per-cpu=100"}));
  EXPECT_FALSE(base.mem_per_node_mb.has_value());
  EXPECT_EQ(base.mem_per_cpu_mb, 100);
}

TEST(SubmitCommandLine, ScriptAndItsArguments) {
  auto c = parse_submit_command_line({"-p", "gpu", "--parsable", "job.sh", "-n", "5", "x"});
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->options.partition, "gpu");
  EXPECT_FALSE(c->options.ntasks.has_value());  // -n after the script is the script's
  EXPECT_TRUE(c->parsable);
  EXPECT_EQ(c->script_path, "job.sh");
  EXPECT_EQ(c->script_args, (std::vector<std::string>{"-n", "5", "x"}));
}

TEST(SubmitCommandLine, WrapCoordinatorConfigAndHelp) {
  auto c =
      parse_submit_command_line({"--wrap", "hostname -f", "--coordinator=tcp://c:1", "--config", "/f.toml"});
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->wrap, "hostname -f");
  EXPECT_EQ(c->coordinator, "tcp://c:1");
  EXPECT_EQ(c->config, "/f.toml");
  EXPECT_TRUE(c->script_path.empty());
  EXPECT_TRUE(parse_submit_command_line({"-h"})->help);
  auto dashdash = parse_submit_command_line({"--", "-weird-name.sh"});
  ASSERT_TRUE(dashdash.has_value());
  EXPECT_EQ(dashdash->script_path, "-weird-name.sh");
}

TEST(SubmitCommandLine, Errors) {
  EXPECT_EQ(parse_submit_command_line({}).error().message,
            "submit needs a script path or --wrap \"command\"");
  EXPECT_EQ(parse_submit_command_line({"--wrap=ls", "job.sh"}).error().message,
            "--wrap and a script \"job.sh\" cannot be given together");
  EXPECT_EQ(parse_submit_command_line({"-N", "x", "job.sh"}).error().message, "--nodes=x: not a number");
  EXPECT_NE(submit_usage().find("--gres=gpu[:TYPE]:N"), std::string::npos);
}

// What the real Slurm 22.05 did with these (tests/conformance/expected: t50s, t1959,
// mail_lower, alias_tpn): limits are whole minutes rounded up, mail events any case,
// --tasks-per-node is --ntasks-per-node.
TEST(SubmitOptions, TimeLimitsAreWholeMinutesRoundedUp) {
  EXPECT_EQ(parse_ok({"--time=00:00:50"}).time, Duration::minutes(1));
  EXPECT_EQ(parse_ok({"--time=00:19:59"}).time, Duration::minutes(20));
  EXPECT_EQ(parse_ok({"--time=00:20:00"}).time, Duration::minutes(20));
  EXPECT_EQ(parse_ok({"--time=1-0:0:1"}).time, Duration::days(1) + Duration::minutes(1));
  EXPECT_TRUE(parse_ok({"--time=UNLIMITED"}).time->is_infinite());
}

TEST(SubmitOptions, MailTypesInAnyCase) {
  EXPECT_EQ(parse_ok({"--mail-type=all"}).mail_events, kMailBegin | kMailEnd | kMailFail | kMailRequeue);
  EXPECT_EQ(parse_ok({"--mail-type=begin,End"}).mail_events, kMailBegin | kMailEnd);
}

TEST(SubmitOptions, SlurmAliasesAndGpuRelativeOptions) {
  EXPECT_EQ(parse_ok({"--tasks-per-node=4"}).ntasks_per_node, 4);
  SubmitOptions o =
      parse_ok({"--gpus-per-task=v100:1", "--cpus-per-gpu=4", "--ntasks-per-gpu=2", "--mem-per-gpu=2G"});
  EXPECT_EQ(o.gpus_per_task, (GpuCount{"v100", 1}));
  EXPECT_EQ(o.cpus_per_gpu, 4);
  EXPECT_EQ(o.ntasks_per_gpu, 2);
  EXPECT_EQ(o.mem_per_gpu_mb, 2048);
  EXPECT_TRUE(o.warnings.empty());
}

// Several options on one #SBATCH line are all read (dir_two: "--nodes=1 --ntasks-per-node=8").
TEST(SubmitOptions, EveryOptionOfADirectiveLineIsRead) {
  SubmitOptions o = parse_ok({"--nodes=1", "--ntasks-per-node=8", "-c", "2", "-J", "x"});
  EXPECT_EQ(o.nodes, 1);
  EXPECT_EQ(o.ntasks_per_node, 8);
  EXPECT_EQ(o.cpus_per_task, 2);
  EXPECT_EQ(o.job_name, "x");
}

}  // namespace
}  // namespace fairway::cli
