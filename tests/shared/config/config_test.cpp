#include "shared/config/config.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "config_test_util.h"
#include "shared/config/config_file.h"

namespace fairway {
namespace {

using config_test::kNode;
using config_test::parse_error;
using config_test::parse_ok;

using Names = std::vector<std::string>;

constexpr const char* kFull = R"(
[cluster]
name = "kebnekaise"

[[nodes]]
names = "b-cn[0101-0104]"
sockets = 2
cores_per_socket = 14
threads_per_core = 1
memory_mb = 196608
features = ["skylake", "ib"]

[[nodes]]
names = "b-cn[0201-0202]"
sockets = 2
cores_per_socket = 14
memory_mb = 196608
gpus_per_socket = 1
gpu_type = "v100"
features = ["gpu"]

[[nodes]]
names = "big1"
sockets = 4
cores_per_socket = 18
threads_per_core = 2
memory_mb = 3145728

[[partitions]]
name = "batch"
nodes = "b-cn[0101-0104],b-cn[0201-0202]"
default = true
max_time = "7-00:00:00"
default_time = "1:00:00"
priority = 0.0

[[partitions]]
name = "largemem"
nodes = "big1"
max_time = "2d"
priority = 10

[[partitions]]
name = "all"
nodes = "ALL"
max_time = 3600
priority = 2.5

[[qos]]
name = "normal"
priority = 0.0
max_time = "2d"

[[qos]]
name = "devel"
priority = 20000
max_time = "30m"

[[accounts]]
name = "proj1"
shares = 10.0
users = ["alice", "bob"]

[[accounts]]
name = "proj2"
shares = 3
users = ["bob"]

[scheduler]
backfill = "conservative"
reservation_depth = 5

[priority]
age_per_minute = 2.0
age_cap = "7d"
fairshare = 1000000
size = 0.5
partition = 1.5
qos = 3.0

[fairshare]
half_life = "14d"

[billing]
cpu = 1.0
gpu = { v100 = 2.0, a100 = 6 }
memory_per_gb = 0.25
)";

TEST(Config, FullExampleParsesToTheRightValues) {
  Config c = parse_ok(kFull);
  EXPECT_EQ(c.cluster_name, "kebnekaise");

  ASSERT_EQ(c.nodes.size(), 7u);
  Names names;
  for (const auto& n : c.nodes) names.push_back(n.name);
  EXPECT_EQ(names, (Names{"b-cn0101", "b-cn0102", "b-cn0103", "b-cn0104", "b-cn0201", "b-cn0202", "big1"}));
  const NodeTopology& cpu = c.nodes[0];
  ASSERT_EQ(cpu.sockets.size(), 2u);
  EXPECT_EQ(cpu.sockets[1].cores, 14);
  EXPECT_EQ(cpu.sockets[1].threads_per_core, 1);
  EXPECT_EQ(cpu.total_cores(), 28);
  EXPECT_EQ(cpu.total_gpus(), 0);
  EXPECT_EQ(cpu.memory_mb, 196608);
  EXPECT_EQ(cpu.features, (Names{"skylake", "ib"}));
  const NodeTopology& gpu = c.nodes[5];
  ASSERT_EQ(gpu.total_gpus(), 2);
  EXPECT_EQ(gpu.gpus[0].type, "v100");
  EXPECT_EQ(gpu.gpus[0].socket, 0);
  EXPECT_EQ(gpu.gpus[1].socket, 1);
  EXPECT_EQ(gpu.features, Names{"gpu"});
  const NodeTopology& big = c.nodes[6];
  EXPECT_EQ(big.total_cores(), 72);
  EXPECT_EQ(big.sockets[0].threads_per_core, 2);
  EXPECT_EQ(big.memory_mb, 3145728);
  EXPECT_TRUE(big.features.empty());

  ASSERT_EQ(c.partitions.size(), 3u);
  const PartitionConfig& batch = c.partitions[0];
  EXPECT_EQ(batch.name, "batch");
  EXPECT_TRUE(batch.is_default);
  EXPECT_EQ(batch.nodes, (Names{"b-cn0101", "b-cn0102", "b-cn0103", "b-cn0104", "b-cn0201", "b-cn0202"}));
  EXPECT_EQ(batch.max_time, Duration::days(7));
  EXPECT_EQ(batch.default_time, Duration::hours(1));
  EXPECT_EQ(batch.priority, 0.0);
  const PartitionConfig& largemem = c.partitions[1];
  EXPECT_FALSE(largemem.is_default);
  EXPECT_EQ(largemem.nodes, Names{"big1"});
  EXPECT_EQ(largemem.max_time, Duration::days(2));
  EXPECT_EQ(largemem.priority, 10.0);
  const PartitionConfig& all = c.partitions[2];
  EXPECT_EQ(all.nodes, names);
  EXPECT_EQ(all.max_time, Duration::hours(1));
  EXPECT_EQ(all.priority, 2.5);
  ASSERT_NE(c.default_partition(), nullptr);
  EXPECT_EQ(c.default_partition()->name, "batch");

  ASSERT_EQ(c.qos.size(), 2u);
  EXPECT_EQ(c.qos[0].name, "normal");
  EXPECT_EQ(c.qos[0].max_time, Duration::days(2));
  EXPECT_EQ(c.qos[1].name, "devel");
  EXPECT_EQ(c.qos[1].priority, 20000.0);
  EXPECT_EQ(c.qos[1].max_time, Duration::minutes(30));

  ASSERT_EQ(c.accounts.size(), 2u);
  EXPECT_EQ(c.accounts[0].name, "proj1");
  EXPECT_EQ(c.accounts[0].shares, 10.0);
  EXPECT_EQ(c.accounts[0].users, (Names{"alice", "bob"}));
  EXPECT_EQ(c.accounts[1].shares, 3.0);
  EXPECT_EQ(c.accounts[1].users, Names{"bob"});  // a user may sit in several accounts

  EXPECT_EQ(c.scheduler.backfill, BackfillMode::kConservative);
  ASSERT_TRUE(c.scheduler.reservation_depth.has_value());
  EXPECT_EQ(*c.scheduler.reservation_depth, 5);

  EXPECT_EQ(c.priority.age_per_minute, 2.0);
  EXPECT_EQ(c.priority.age_cap, Duration::days(7));
  EXPECT_EQ(c.priority.fairshare, 1000000.0);
  EXPECT_EQ(c.priority.size, 0.5);
  EXPECT_EQ(c.priority.partition, 1.5);
  EXPECT_EQ(c.priority.qos, 3.0);
  EXPECT_EQ(c.fairshare.half_life, Duration::days(14));
  EXPECT_EQ(c.billing.cpu, 1.0);
  EXPECT_EQ(c.billing.gpu, (std::map<std::string, double>{{"a100", 6.0}, {"v100", 2.0}}));
  EXPECT_EQ(c.billing.memory_per_gb, 0.25);
}

TEST(Config, EmptyTextGivesDefaults) {
  Config c = parse_ok("");
  EXPECT_EQ(c.cluster_name, "fairway");
  EXPECT_TRUE(c.nodes.empty());
  EXPECT_TRUE(c.qos.empty());
  EXPECT_TRUE(c.accounts.empty());
  EXPECT_EQ(c.scheduler.backfill, BackfillMode::kEasy);
  EXPECT_FALSE(c.scheduler.reservation_depth.has_value());
  EXPECT_EQ(c.priority.age_per_minute, 1.0);
  EXPECT_TRUE(c.priority.age_cap.is_infinite());
  EXPECT_EQ(c.priority.fairshare, 0.0);
  EXPECT_EQ(c.priority.size, 0.0);
  EXPECT_EQ(c.priority.partition, 1.0);
  EXPECT_EQ(c.priority.qos, 1.0);
  EXPECT_EQ(c.fairshare.half_life, Duration::days(14));
  EXPECT_EQ(c.billing.cpu, 1.0);
  EXPECT_TRUE(c.billing.gpu.empty());
  ASSERT_EQ(c.partitions.size(), 1u);
  EXPECT_EQ(c.partitions[0].name, "batch");
  EXPECT_TRUE(c.partitions[0].is_default);
  EXPECT_TRUE(c.partitions[0].nodes.empty());  // no nodes declared: spans what is supplied
  EXPECT_TRUE(c.partitions[0].max_time.is_infinite());
  EXPECT_EQ(c.partitions[0].default_time, Duration::hours(1));
}

TEST(Config, NodeGroupDefaults) {
  Config c = parse_ok("[[nodes]]\nnames = \"cn[1-2]\"\ncores_per_socket = 8\n");
  ASSERT_EQ(c.nodes.size(), 2u);
  for (const auto& n : c.nodes) {
    ASSERT_EQ(n.sockets.size(), 1u);
    EXPECT_EQ(n.sockets[0].cores, 8);
    EXPECT_EQ(n.sockets[0].threads_per_core, 1);
    EXPECT_EQ(n.memory_mb, 0);
    EXPECT_TRUE(n.gpus.empty());
    EXPECT_TRUE(n.features.empty());
  }
}

TEST(Config, NoPartitionsMakesDefaultBatchOverEveryNode) {
  Config c = parse_ok(std::string(kNode) + "[[nodes]]\nnames = \"gpu1\"\ncores_per_socket = 2\n");
  ASSERT_EQ(c.partitions.size(), 1u);
  EXPECT_EQ(c.partitions[0].name, "batch");
  EXPECT_TRUE(c.partitions[0].is_default);
  EXPECT_EQ(c.partitions[0].nodes, (Names{"cn1", "cn2", "cn3", "cn4", "gpu1"}));
  ASSERT_NE(c.default_partition(), nullptr);
  EXPECT_EQ(c.default_partition(), &c.partitions[0]);
}

TEST(Config, FirstPartitionIsDefaultWhenNoneSaysSo) {
  Config c = parse_ok(std::string(kNode) +
                      "[[partitions]]\nname = \"short\"\nnodes = \"cn[1-2]\"\n"
                      "[[partitions]]\nname = \"long\"\n");
  ASSERT_EQ(c.partitions.size(), 2u);
  EXPECT_TRUE(c.partitions[0].is_default);
  EXPECT_FALSE(c.partitions[1].is_default);
  EXPECT_EQ(c.default_partition()->name, "short");
  EXPECT_EQ(c.partitions[0].nodes, (Names{"cn1", "cn2"}));
  EXPECT_EQ(c.partitions[1].nodes, (Names{"cn1", "cn2", "cn3", "cn4"}));  // absent: every node
}

TEST(Config, ExplicitDefaultWinsOverFirst) {
  Config c = parse_ok(std::string(kNode) +
                      "[[partitions]]\nname = \"a\"\n"
                      "[[partitions]]\nname = \"b\"\ndefault = true\n");
  EXPECT_FALSE(c.partitions[0].is_default);
  EXPECT_TRUE(c.partitions[1].is_default);
  EXPECT_EQ(c.default_partition()->name, "b");
}

TEST(Config, PartitionNodesDeduplicatedInOrder) {
  Config c = parse_ok(std::string(kNode) + "[[partitions]]\nname = \"p\"\nnodes = \"cn[3-4],cn1,cn3\"\n");
  EXPECT_EQ(c.partitions[0].nodes, (Names{"cn3", "cn4", "cn1"}));
}

TEST(Config, DefaultTimeIsClampedToMaxTimeWhenAbsent) {
  Config c = parse_ok("[[partitions]]\nname = \"debug\"\nmax_time = \"30m\"\n");
  EXPECT_EQ(c.partitions[0].max_time, Duration::minutes(30));
  EXPECT_EQ(c.partitions[0].default_time, Duration::minutes(30));
}

TEST(Config, DefaultPartitionOnHandBuiltConfig) {
  Config c;
  EXPECT_EQ(c.default_partition(), nullptr);
  PartitionConfig x;
  x.name = "x";
  PartitionConfig y;
  y.name = "y";
  y.is_default = true;
  c.partitions.push_back(x);
  c.partitions.push_back(y);
  EXPECT_EQ(c.default_partition()->name, "y");
  c.partitions[1].is_default = false;
  EXPECT_EQ(c.default_partition()->name, "x");
}

TEST(Config, TimeValues) {
  auto max_time = [](std::string_view value) {
    Config c = parse_ok("[[partitions]]\nname = \"p\"\nmax_time = " + std::string(value) + "\n");
    return c.partitions.empty() ? Duration() : c.partitions[0].max_time;
  };
  EXPECT_EQ(max_time("7200"), Duration::hours(2));
  EXPECT_EQ(max_time("\"30s\""), Duration::seconds(30));
  EXPECT_EQ(max_time("\"2h\""), Duration::hours(2));
  EXPECT_EQ(max_time("\"8w\""), Duration::days(56));
  EXPECT_EQ(max_time("\"1:30:00\""), Duration::minutes(90));
  EXPECT_EQ(max_time("\"7-00:00:00\""), Duration::days(7));
  EXPECT_TRUE(max_time("\"UNLIMITED\"").is_infinite());
}

TEST(Config, BackfillModes) {
  EXPECT_EQ(parse_ok("[scheduler]\nbackfill = \"none\"\n").scheduler.backfill, BackfillMode::kNone);
  EXPECT_EQ(parse_ok("[scheduler]\nbackfill = \"easy\"\n").scheduler.backfill, BackfillMode::kEasy);
  EXPECT_EQ(parse_ok("[scheduler]\nbackfill = \"conservative\"\n").scheduler.backfill,
            BackfillMode::kConservative);
  EXPECT_EQ(to_string(BackfillMode::kNone), "none");
  EXPECT_EQ(to_string(BackfillMode::kEasy), "easy");
  EXPECT_EQ(to_string(BackfillMode::kConservative), "conservative");
  auto depth = parse_ok("[scheduler]\nreservation_depth = 0\n").scheduler.reservation_depth;
  ASSERT_TRUE(depth.has_value());
  EXPECT_EQ(*depth, 0);
}

// ---- errors: each names the source, the key path and the bad value ----

TEST(ConfigErrors, TomlSyntaxErrorNamesSourceLineAndColumn) {
  std::string msg = parse_error("[cluster]\nname = \"x\"\nbad = = 3\n");
  EXPECT_CONTAINS(msg, "cluster.toml:3:");
}

TEST(ConfigErrors, UnknownKeys) {
  EXPECT_CONTAINS(parse_error("[scheduler]\nbackfil = \"easy\"\n"),
                  "cluster.toml: scheduler.backfil: unknown key");
  EXPECT_CONTAINS(parse_error("[schedular]\n"), "cluster.toml: schedular: unknown key");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "core = 4\n"), "cluster.toml: nodes[0].core: unknown key");
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"p\"\nmaxtime = 5\n"),
                  "partitions[0].maxtime: unknown key");
  EXPECT_CONTAINS(parse_error("[[qos]]\nname = \"q\"\nprio = 5\n"), "qos[0].prio: unknown key");
  EXPECT_CONTAINS(parse_error("[[accounts]]\nname = \"a\"\nuser = [\"x\"]\n"),
                  "accounts[0].user: unknown key");
  EXPECT_CONTAINS(parse_error("[priority]\njob_size = 1\n"), "priority.job_size: unknown key");
  EXPECT_CONTAINS(parse_error("[fairshare]\nhalflife = \"8w\"\n"), "fairshare.halflife: unknown key");
  EXPECT_CONTAINS(parse_error("[billing]\nmem = 1\n"), "billing.mem: unknown key");
  EXPECT_CONTAINS(parse_error("[cluster]\nnam = \"x\"\n"), "cluster.nam: unknown key");
}

TEST(ConfigErrors, WrongTypesNameTheExpectedType) {
  EXPECT_CONTAINS(parse_error("[cluster]\nname = 5\n"),
                  "cluster.toml: cluster.name: expected a string, got integer 5");
  EXPECT_CONTAINS(parse_error("[[nodes]]\nnames = \"cn1\"\ncores_per_socket = \"14\"\n"),
                  "nodes[0].cores_per_socket: expected an integer, got string '14'");
  EXPECT_CONTAINS(parse_error("[[nodes]]\nnames = \"cn1\"\ncores_per_socket = 1.5\n"),
                  "nodes[0].cores_per_socket: expected an integer, got float 1.5");
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"p\"\ndefault = \"yes\"\n"),
                  "partitions[0].default: expected a boolean, got string 'yes'");
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"p\"\npriority = \"high\"\n"),
                  "partitions[0].priority: expected a number, got string 'high'");
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"p\"\nmax_time = true\n"),
                  "partitions[0].max_time: expected a time");
  EXPECT_CONTAINS(parse_error("[[accounts]]\nname = \"a\"\nusers = \"alice\"\n"),
                  "accounts[0].users: expected an array of strings, got string 'alice'");
  EXPECT_CONTAINS(parse_error("[[accounts]]\nname = \"a\"\nusers = [\"alice\", 3]\n"),
                  "accounts[0].users[1]: expected a string, got integer 3");
  EXPECT_CONTAINS(parse_error("scheduler = 3\n"), "scheduler: expected a table, got integer 3");
  EXPECT_CONTAINS(parse_error("[nodes]\nnames = \"cn1\"\n"),
                  "nodes: expected an array of tables ([[nodes]]), got table");
  EXPECT_CONTAINS(parse_error("[billing]\ngpu = 2.0\n"), "billing.gpu: expected a table, got float 2");
  EXPECT_CONTAINS(parse_error("[billing]\ngpu = { v100 = \"2\" }\n"),
                  "billing.gpu.v100: expected a number, got string '2'");
}

TEST(ConfigErrors, RequiredKeys) {
  EXPECT_CONTAINS(parse_error("[[nodes]]\ncores_per_socket = 4\n"),
                  "cluster.toml: nodes[0].names: required key is missing");
  EXPECT_CONTAINS(parse_error("[[nodes]]\nnames = \"cn1\"\n"),
                  "nodes[0].cores_per_socket: required key is missing");
  EXPECT_CONTAINS(parse_error("[[partitions]]\nmax_time = 5\n"),
                  "partitions[0].name: required key is missing");
  EXPECT_CONTAINS(parse_error("[[qos]]\npriority = 5\n"), "qos[0].name: required key is missing");
  EXPECT_CONTAINS(parse_error("[[accounts]]\nshares = 5\n"), "accounts[0].name: required key is missing");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "gpus_per_socket = 2\n"),
                  "nodes[0].gpu_type: required when gpus_per_socket > 0");
}

TEST(ConfigErrors, IntegerBounds) {
  EXPECT_CONTAINS(parse_error("[[nodes]]\nnames = \"cn1\"\ncores_per_socket = 0\n"),
                  "cluster.toml: nodes[0].cores_per_socket: must be >= 1, got 0");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "sockets = 0\n"), "nodes[0].sockets: must be >= 1, got 0");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "threads_per_core = -1\n"),
                  "nodes[0].threads_per_core: must be >= 1, got -1");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "memory_mb = -5\n"),
                  "nodes[0].memory_mb: must be >= 0, got -5");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "gpus_per_socket = -1\n"),
                  "nodes[0].gpus_per_socket: must be >= 0, got -1");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "sockets = 100000\n"),
                  "nodes[0].sockets: must be <= 1024, got 100000");
  EXPECT_CONTAINS(parse_error("[scheduler]\nreservation_depth = -1\n"),
                  "scheduler.reservation_depth: must be >= 0, got -1");
}

TEST(ConfigErrors, BadNames) {
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "gpus_per_socket = 1\ngpu_type = \"V100\"\n"),
                  "nodes[0].gpu_type: invalid GPU type 'V100'");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "features = [\"a b\"]\n"),
                  "nodes[0].features[0]: invalid feature 'a b'");
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"my part\"\n"),
                  "partitions[0].name: invalid name 'my part'");
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"\"\n"), "partitions[0].name: invalid name ''");
  EXPECT_CONTAINS(parse_error("[[qos]]\nname = \"a.b\"\n"), "qos[0].name: invalid name 'a.b'");
  EXPECT_CONTAINS(parse_error("[[accounts]]\nname = \"p 1\"\n"), "accounts[0].name: invalid name 'p 1'");
  EXPECT_CONTAINS(parse_error("[[accounts]]\nname = \"p\"\nusers = [\"\"]\n"),
                  "accounts[0].users[0]: invalid user ''");
  EXPECT_CONTAINS(parse_error("[billing]\ngpu = { A100 = 6.0 }\n"),
                  "billing.gpu.A100: invalid GPU type 'A100'");
  EXPECT_CONTAINS(parse_error("[cluster]\nname = \"\"\n"), "cluster.name: invalid name ''");
}

TEST(ConfigErrors, BadHostlistsNameTheText) {
  EXPECT_CONTAINS(parse_error("[[nodes]]\nnames = \"cn[1-4\"\ncores_per_socket = 1\n"),
                  "cluster.toml: nodes[0].names: invalid host list 'cn[1-4'");
  EXPECT_CONTAINS(parse_error("[[nodes]]\nnames = \"cn[4-1]\"\ncores_per_socket = 1\n"),
                  "nodes[0].names: invalid host list 'cn[4-1]': reversed range '4-1'");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\nnodes = \"cn[x]\"\n"),
                  "partitions[0].nodes: invalid host list 'cn[x]'");
}

TEST(ConfigErrors, InvalidTimes) {
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"a\"\n[[partitions]]\nname = \"b\"\n"
                              "max_time = \"abc\"\n"),
                  "cluster.toml: partitions[1].max_time: invalid time 'abc' (");
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"a\"\ndefault_time = -5\n"),
                  "partitions[0].default_time: must be >= 0 seconds, got -5");
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"a\"\nmax_time = 0\n"),
                  "partitions[0].max_time: must be > 0, got 0");
  EXPECT_CONTAINS(parse_error("[[qos]]\nname = \"q\"\nmax_time = \"2x\"\n"),
                  "qos[0].max_time: invalid time '2x'");
  EXPECT_CONTAINS(parse_error("[priority]\nage_cap = \"1.5d\"\n"),
                  "priority.age_cap: invalid time span '1.5d'");
  EXPECT_CONTAINS(parse_error("[fairshare]\nhalf_life = \"0s\"\n"),
                  "fairshare.half_life: must be > 0, got '0s'");
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"a\"\nmax_time = \"1h\"\n"
                              "default_time = \"2h\"\n"),
                  "partitions[0].default_time: '02:00:00' exceeds max_time '01:00:00'");
}

TEST(ConfigErrors, AgeCapZeroIsAllowed) {
  EXPECT_EQ(parse_ok("[priority]\nage_cap = 0\n").priority.age_cap, Duration::seconds(0));
}

TEST(ConfigErrors, BadNumbers) {
  EXPECT_CONTAINS(parse_error("[priority]\nfairshare = -1.0\n"),
                  "cluster.toml: priority.fairshare: must be >= 0, got -1");
  EXPECT_CONTAINS(parse_error("[priority]\nsize = inf\n"), "priority.size: must be a finite number, got inf");
  EXPECT_CONTAINS(parse_error("[priority]\nage_per_minute = nan\n"),
                  "priority.age_per_minute: must be a finite number, got nan");
  EXPECT_CONTAINS(parse_error("[[accounts]]\nname = \"a\"\nshares = 0\n"),
                  "accounts[0].shares: must be > 0, got 0");
  EXPECT_CONTAINS(parse_error("[[accounts]]\nname = \"a\"\nshares = -2.5\n"),
                  "accounts[0].shares: must be > 0, got -2.5");
  EXPECT_CONTAINS(parse_error("[[qos]]\nname = \"q\"\npriority = -3\n"),
                  "qos[0].priority: must be >= 0, got -3");
  EXPECT_CONTAINS(parse_error("[billing]\ncpu = -1\n"), "billing.cpu: must be >= 0, got -1");
  EXPECT_CONTAINS(parse_error("[billing]\ngpu = { v100 = -2 }\n"), "billing.gpu.v100: must be >= 0, got -2");
}

TEST(ConfigErrors, BadBackfillMode) {
  EXPECT_CONTAINS(parse_error("[scheduler]\nbackfill = \"EASY\"\n"),
                  "cluster.toml: scheduler.backfill: invalid value 'EASY' "
                  "(expected none, easy or conservative)");
}

TEST(ConfigErrors, DuplicateNodeAcrossGroups) {
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[nodes]]\nnames = \"gpu1,cn3\"\ncores_per_socket = 2\n"),
                  "cluster.toml: nodes[1].names: duplicate node 'cn3' (already in nodes[0])");
  EXPECT_CONTAINS(parse_error("[[nodes]]\nnames = \"cn[1-3],cn2\"\ncores_per_socket = 2\n"),
                  "nodes[0].names: duplicate node 'cn2' (already in nodes[0])");
}

TEST(ConfigErrors, DuplicatePartitionQosAccount) {
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"p\"\n[[partitions]]\nname = \"p\"\n"),
                  "cluster.toml: partitions[1].name: duplicate partition 'p' "
                  "(already partitions[0])");
  EXPECT_CONTAINS(parse_error("[[qos]]\nname = \"q\"\n[[qos]]\nname = \"x\"\n"
                              "[[qos]]\nname = \"q\"\n"),
                  "qos[2].name: duplicate qos 'q' (already qos[0])");
  EXPECT_CONTAINS(parse_error("[[accounts]]\nname = \"a\"\n[[accounts]]\nname = \"a\"\n"),
                  "accounts[1].name: duplicate account 'a' (already accounts[0])");
  EXPECT_CONTAINS(parse_error("[[accounts]]\nname = \"a\"\nusers = [\"u\", \"v\", \"u\"]\n"),
                  "accounts[0].users[2]: duplicate user 'u'");
}

TEST(ConfigErrors, PartitionWithUnknownNode) {
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\nnodes = \"cn[3-5]\"\n"),
                  "cluster.toml: partitions[0].nodes: unknown node 'cn5' in 'cn[3-5]'");
  // With no nodes declared, any named node is unknown.
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"p\"\nnodes = \"cn1\"\n"),
                  "partitions[0].nodes: unknown node 'cn1'");
}

TEST(ConfigErrors, MoreThanOneDefaultPartition) {
  EXPECT_CONTAINS(parse_error("[[partitions]]\nname = \"a\"\ndefault = true\n"
                              "[[partitions]]\nname = \"b\"\n"
                              "[[partitions]]\nname = \"c\"\ndefault = true\n"),
                  "cluster.toml: partitions[2].default: more than one default partition "
                  "('a' in partitions[0] and 'c' here)");
}

TEST(ConfigErrors, EmptySourceStillNamesSomething) {
  auto r = parse_config("[scheduler]\nbackfil = 1\n", "");
  ASSERT_FALSE(r.has_value());
  EXPECT_CONTAINS(r.error().message, "config: scheduler.backfil: unknown key");
}

// ---- files ----

class ConfigFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("fairway_config_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text) {
    auto path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::filesystem::path dir_;
};

TEST_F(ConfigFile, LoadsATempFile) {
  std::string path = write("site.toml", kFull);
  auto r = load_config_file(path);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->cluster_name, "kebnekaise");
  EXPECT_EQ(r->nodes.size(), 7u);
}

TEST_F(ConfigFile, ErrorsNameThePath) {
  std::string path = write("bad.toml", "[scheduler]\nbackfill = \"fast\"\n");
  auto r = load_config_file(path);
  ASSERT_FALSE(r.has_value());
  EXPECT_CONTAINS(r.error().message, path + ": scheduler.backfill: invalid value 'fast'");
}

TEST_F(ConfigFile, MissingPath) {
  std::string path = (dir_ / "does-not-exist.toml").string();
  auto r = load_config_file(path);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
  EXPECT_CONTAINS(r.error().message, path);
  EXPECT_CONTAINS(r.error().message, "No such file or directory");
}

TEST_F(ConfigFile, DirectoryIsNotAConfig) {
  auto r = load_config_file(dir_.string());
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_CONTAINS(r.error().message, dir_.string());
  EXPECT_CONTAINS(r.error().message, "Is a directory");
}

}  // namespace
}  // namespace fairway
