#include "client/views/slurm/sinfo_view.h"

#include <gtest/gtest.h>

namespace fairway::cli {
namespace {

wire::NodeView node(const std::string& name, const std::string& state, std::int32_t used,
                    const std::string& reason = "") {
  wire::NodeView n;
  n.name = name;
  n.state = state;
  n.cores = 28;
  n.cores_used = used;
  n.memory_mb = 196608;
  n.reason = reason;
  return n;
}

struct Cluster {
  wire::PartitionQueryReply partitions;
  wire::NodeQueryReply nodes;
  Cluster() {
    wire::PartitionView batch;
    batch.name = "batch";
    batch.is_default = true;
    batch.max_time = Duration::days(7);
    batch.nodes = {"cn03", "cn02", "cn01", "cn04"};
    wire::PartitionView debug;
    debug.name = "debug";
    debug.max_time = Duration::minutes(30);
    debug.nodes = {"cn04"};
    wire::PartitionView empty;
    empty.name = "long";
    empty.max_time = Duration::infinite();
    partitions.partitions = {batch, debug, empty};
    nodes.nodes = {node("cn01", "idle", 0), node("cn02", "allocated", 28), node("cn03", "idle", 0),
                   node("cn04", "drained", 0, "disk failing")};
  }
  std::string render(const std::string& format, bool node_oriented = false, bool header = true) const {
    auto fields = parse_sinfo_format(format);
    EXPECT_TRUE(fields) << fields.error().message;
    return render_sinfo(partitions, nodes, *fields, node_oriented, header);
  }
};

// The layout sinfo prints by default (Slurm 22.05), one row per partition and state.
TEST(SinfoView, DefaultLayoutGroupsEachPartitionsNodesByState) {
  EXPECT_EQ(Cluster().render(kSinfoDefaultFormat),
            "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
            "batch*       up 7-00:00:00      2   idle cn[01,03]\n"
            "batch*       up 7-00:00:00      1  alloc cn02\n"
            "batch*       up 7-00:00:00      1  drain cn04\n"
            "debug        up      30:00      1  drain cn04\n"
            "long         up   infinite      0    n/a \n");
}

// sinfo -s: one row per partition, its nodes allocated/idle/other (down, drained)/total.
TEST(SinfoView, SummaryCountsEachPartitionsNodesByKind) {
  const Cluster c;
  auto fields = parse_sinfo_format(kSinfoSummaryFormat);
  ASSERT_TRUE(fields);
  EXPECT_EQ(render_sinfo(c.partitions, c.nodes, *fields, false, true, true),
            "PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST\n"
            "batch*       up 7-00:00:00          1/2/1/4 cn[01-04]\n"
            "debug        up      30:00          0/0/1/1 cn04\n"
            "long         up   infinite          0/0/0/0 \n");
}

TEST(SinfoView, NodeOrientedAndOtherFields) {
  const Cluster c;
  // As Slurm 22.05 prints it, padding and all.
  EXPECT_EQ(c.render(kSinfoNodeFormat, true),
            "NODELIST   NODES PARTITION STATE \n"
            "cn01           1    batch* idle  \n"
            "cn02           1    batch* alloc \n"
            "cn03           1    batch* idle  \n"
            "cn04           1    batch* drain \n"
            "cn04           1     debug drain \n");
  // Snakemake asks for the partitions alone and looks for the default one's '*'.
  EXPECT_EQ(c.render("%P", false, true), "PARTITION\nbatch*\nbatch*\nbatch*\ndebug\nlong\n");
  EXPECT_EQ(c.render("%P %C %c %m %E", false, false),
            "batch* 0/56/0/56 28 196608 none\nbatch* 28/0/0/28 28 196608 none\nbatch* 0/0/28/28 28 196608 "
            "disk failing\n"
            "debug 0/0/28/28 28 196608 disk failing\nlong 0/0/0/0 0 0 none\n");
  EXPECT_FALSE(parse_sinfo_format("%P %Z"));
}

// sinfo -N -l, as Slurm 22.05 printed it for the anchor's drained node c2 (16 one-core
// sockets, 64000 MB, no features; the time line is printed before it).
TEST(SinfoView, NodeOrientedLongLayoutIsSlurms) {
  wire::PartitionQueryReply partitions;
  wire::PartitionView main;
  main.name = "main";
  main.is_default = true;
  main.nodes = {"c2"};
  partitions.partitions = {main};
  wire::NodeQueryReply nodes;
  wire::NodeView c2 = node("c2", "drained", 0, "disk check");
  c2.sockets = 16;
  c2.cores = 16;
  c2.memory_mb = 64000;
  nodes.nodes = {c2};
  auto fields = parse_sinfo_format(kSinfoNodeLongFormat);
  ASSERT_TRUE(fields);
  EXPECT_EQ(render_sinfo(partitions, nodes, *fields, true, true),
            "NODELIST   NODES PARTITION       STATE CPUS    S:C:T MEMORY TMP_DISK WEIGHT AVAIL_FE REASON     "
            "         \n"
            "c2             1     main*     drained 16     16:1:1  64000        0      1   (null) disk check "
            "         \n");
  nodes.nodes[0].features = {"ib", "avx512"};
  EXPECT_NE(render_sinfo(partitions, nodes, *fields, true, false).find(" ib,avx51 "), std::string::npos)
      << "features, cut to the column as sinfo cuts them";
}

}  // namespace
}  // namespace fairway::cli
