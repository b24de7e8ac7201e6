// The store's record of a remembered node: every field comes back, version 1's text is
// frozen in a golden file, a record from before schema 8 (a wire frame) converts, and a
// damaged or newer record is an error naming what is wrong.
#include "coordinator/daemon/known_nodes.h"

#include <gtest/gtest.h>

#include <fstream>

#include "shared/base/hex.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

NodeTopology gpu_node() {
  NodeTopology t = NodeTopology::uniform("kb042", 2, 14, 2, "v100", 2);
  t.sockets[1].cores = 12;  // not uniform on purpose
  t.memory_mb = 192'000;
  t.features = {"ib", "skylake"};
  return t;
}

void expect_same(const NodeTopology& a, const NodeTopology& b) {
  EXPECT_EQ(a.name, b.name);
  ASSERT_EQ(a.sockets.size(), b.sockets.size());
  for (std::size_t i = 0; i < a.sockets.size(); ++i) {
    EXPECT_EQ(a.sockets[i].cores, b.sockets[i].cores);
    EXPECT_EQ(a.sockets[i].threads_per_core, b.sockets[i].threads_per_core);
  }
  ASSERT_EQ(a.gpus.size(), b.gpus.size());
  for (std::size_t i = 0; i < a.gpus.size(); ++i) {
    EXPECT_EQ(a.gpus[i].type, b.gpus[i].type);
    EXPECT_EQ(a.gpus[i].socket, b.gpus[i].socket);
  }
  EXPECT_EQ(a.memory_mb, b.memory_mb);
  EXPECT_EQ(a.features, b.features);
}

TEST(KnownNodeRecord, EveryFieldComesBack) {
  auto back = parse_known_node_record(known_node_record(gpu_node()));
  ASSERT_TRUE(back) << back.error().message;
  expect_same(*back, gpu_node());
}

// Version 1's text, frozen at schema 8 (stop 21).
TEST(KnownNodeRecord, VersionOneGoldenRecordReadsAndIsWrittenTheSame) {
  std::ifstream in(std::string(FAIRWAY_SOURCE_DIR) + "/tests/fixtures/store/node-v1.hex");
  ASSERT_TRUE(in);
  std::string text;
  std::getline(in, text);
  auto back = parse_known_node_record(text);
  ASSERT_TRUE(back) << back.error().message;
  expect_same(*back, gpu_node());
  EXPECT_EQ(known_node_record(gpu_node()), text);
}

TEST(KnownNodeRecord, ARecordFromBeforeSchemaEightConverts) {
  const std::string old = to_hex(wire::encode(wire::AgentRegister{"kb042", "", gpu_node(), {}, ""}));
  EXPECT_FALSE(parse_known_node_record(old)) << "a wire frame is not a record";
  auto converted = known_node_record_from_wire(old);
  ASSERT_TRUE(converted) << converted.error().message;
  auto back = parse_known_node_record(*converted);
  ASSERT_TRUE(back) << back.error().message;
  expect_same(*back, gpu_node());
  EXPECT_FALSE(known_node_record_from_wire("zz"));
}

TEST(KnownNodeRecord, DamagedOrNewerRecordsAreNamed) {
  std::string record = known_node_record(gpu_node());
  std::string newer = record;
  // ["FWNODE", 1, ...]: the version is the byte after the magic (0x93 0xa6 "FWNODE" 0x01).
  ASSERT_EQ(newer.substr(16, 2), "01");
  newer.replace(16, 2, "02");
  auto v2 = parse_known_node_record(newer);
  ASSERT_FALSE(v2);
  EXPECT_EQ(v2.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(v2.error().message.find("version 2"), std::string::npos) << v2.error().message;
  for (const std::string& bad :
       {record.substr(0, record.size() - 1), std::string("xy"), record.substr(0, 20)}) {
    auto r = parse_known_node_record(bad);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("known node record"), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace fairway::daemon
