#include "coordinator/cli/submit_options.h"

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
  SubmitOptions o = parse_ok({"-p", "gpu", "-Aphys", "--qos=long", "--ntasks", "8", "-N2",
                              "-c", "4", "--ntasks-per-node=4", "--gpus=a100:4",
                              "--gpus-per-node", "2", "--gres=gpu:v100:1", "-t", "2-00:00:00",
                              "-J", "name", "-o", "out", "-eerr", "--no-requeue", "--hold",
                              "-D", "/tmp"});
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
  EXPECT_EQ(parse_error({"--gres=gpu:0"}),
            "--gres=gpu:0: expected gpu[:TYPE]:N with N a positive number");
}

TEST(SubmitOptions, MemIsAcceptedWithAWarning) {
  SubmitOptions o = parse_ok({"--mem=4G"});
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_EQ(o.warnings[0], "--mem=4G ignored: memory is not scheduled yet");
}

TEST(SubmitOptions, BadValuesNameOptionAndValue) {
  EXPECT_EQ(parse_error({"-n", "0"}), "--ntasks=0: must be at least 1");
  EXPECT_EQ(parse_error({"--nodes=-2"}), "--nodes=-2: must be at least 1");
  EXPECT_EQ(parse_error({"-c", "four"}), "--cpus-per-task=four: not a number");
  EXPECT_EQ(parse_error({"-n", "4x"}), "--ntasks=4x: not a number");
  EXPECT_EQ(parse_error({"-n", "99999999999"}), "--ntasks=99999999999: number too large");
  EXPECT_EQ(parse_error({"--gpus=:2"}), "--gpus=:2: expected N or TYPE:N");
  EXPECT_NE(parse_error({"-t", "soon"}).find("--time=soon: "), std::string::npos);
  EXPECT_EQ(parse_error({"-t", "0"}), "--time=0: must be positive");
  EXPECT_EQ(parse_error({"-p", ""}), "--partition: empty value");
}

TEST(SubmitOptions, StructuralErrors) {
  EXPECT_EQ(parse_error({"--frobnicate=3"}), "unknown option \"--frobnicate=3\"");
  EXPECT_EQ(parse_error({"-Z"}), "unknown option \"-Z\"");
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
  EXPECT_EQ(base.warnings.size(), 1u);
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
  auto c = parse_submit_command_line(
      {"--wrap", "hostname -f", "--coordinator=tcp://c:1", "--config", "/f.toml"});
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
  EXPECT_EQ(parse_submit_command_line({"-N", "x", "job.sh"}).error().message,
            "--nodes=x: not a number");
  EXPECT_NE(submit_usage().find("--gres=gpu[:TYPE]:N"), std::string::npos);
}

}  // namespace
}  // namespace fairway::cli
