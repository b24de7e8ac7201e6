// PMI's wire formats as MPICH (PMI-1 over PMI_FD) and PMI-2 clients write them, and the
// process mapping MPICH reads to find which ranks share a node.
#include "agent/step/pmi_wire.h"

#include <gtest/gtest.h>

namespace fairway::agent {
namespace {

TEST(PmiWire, PmiOneLinesAreTakenWholeOneAtATime) {
  // What Debian's MPICH 4.0.2 sends first (captured from a rank with PMI_FD set).
  std::string buffer = "cmd=init pmi_version=1 pmi_subversion=1\ncmd=get_maxes\ncmd=put kvsname=5.0 key=P0";
  auto first = take_pmi_command(buffer, PmiWire::kV1);
  ASSERT_TRUE(first && *first);
  EXPECT_EQ((*first)->cmd, "init");
  EXPECT_EQ((*first)->get("pmi_version"), "1");
  auto second = take_pmi_command(buffer, PmiWire::kV1);
  ASSERT_TRUE(second && *second);
  EXPECT_EQ((*second)->cmd, "get_maxes");
  EXPECT_TRUE((*second)->args.empty());
  auto partial = take_pmi_command(buffer, PmiWire::kV1);
  ASSERT_TRUE(partial);
  EXPECT_FALSE(*partial) << "a line without its newline waits for more";
  buffer += "-businesscard value=description#tcp$port#5000$\n";
  auto put = take_pmi_command(buffer, PmiWire::kV1);
  ASSERT_TRUE(put && *put);
  EXPECT_EQ((*put)->get("key"), "P0-businesscard");
  EXPECT_EQ((*put)->get("value"), "description#tcp$port#5000$");
  EXPECT_TRUE(buffer.empty());
}

TEST(PmiWire, ACommandWithoutCmdOrTooLongIsAnError) {
  std::string buffer = "key=value\n";
  auto bad = take_pmi_command(buffer, PmiWire::kV1);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("must start with cmd="), std::string::npos) << bad.error().message;
  std::string endless(kMaxPmiCommandBytes + 1, 'x');
  auto too_long = take_pmi_command(endless, PmiWire::kV1);
  ASSERT_FALSE(too_long);
  EXPECT_NE(too_long.error().message.find("longer than 64 KiB"), std::string::npos);
}

TEST(PmiWire, ASpawnBlockIsOneCommand) {
  std::string buffer = "mcmd=spawn\nnprocs=2\nexecname=a.out\nendcmd\ncmd=finalize\n";
  auto spawn = take_pmi_command(buffer, PmiWire::kV1);
  ASSERT_TRUE(spawn && *spawn);
  EXPECT_EQ((*spawn)->cmd, "spawn");
  EXPECT_EQ((*spawn)->get("nprocs"), "2");
  auto next = take_pmi_command(buffer, PmiWire::kV1);
  ASSERT_TRUE(next && *next);
  EXPECT_EQ((*next)->cmd, "finalize");
}

TEST(PmiWire, PmiTwoCommandsHaveALengthAndEscapedSemicolons) {
  const std::string text = "cmd=kvs-put;key=k;value=a;;b;";
  std::string length = std::to_string(text.size());
  length.resize(6, ' ');
  std::string buffer = length + text + "12";
  auto put = take_pmi_command(buffer, PmiWire::kV2);
  ASSERT_TRUE(put && *put) << (put ? "" : put.error().message);
  EXPECT_EQ((*put)->cmd, "kvs-put");
  EXPECT_EQ((*put)->get("value"), "a;b");
  EXPECT_EQ(buffer, "12");
  auto waiting = take_pmi_command(buffer, PmiWire::kV2);
  ASSERT_TRUE(waiting);
  EXPECT_FALSE(*waiting);
  std::string bad = "12ab  cmd=x;";
  auto refused = take_pmi_command(bad, PmiWire::kV2);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("length field must be digits, got '12ab  '"), std::string::npos);
  std::string huge = "999999";
  ASSERT_FALSE(take_pmi_command(huge, PmiWire::kV2));
}

TEST(PmiWire, RepliesInEachFormat) {
  EXPECT_EQ(format_pmi_reply(PmiWire::kV1, "get_result", {{"rc", "0"}, {"value", "v"}}),
            "cmd=get_result rc=0 value=v\n");
  const std::string v2 = format_pmi_reply(PmiWire::kV2, "kvs-get-response", {{"rc", "0"}, {"value", "a;b"}});
  EXPECT_EQ(v2, "37    cmd=kvs-get-response;rc=0;value=a;;b;");
  // What we write, we read back.
  std::string buffer = v2;
  auto back = take_pmi_command(buffer, PmiWire::kV2);
  ASSERT_TRUE(back && *back);
  EXPECT_EQ((*back)->get("value"), "a;b");
}

TEST(PmiWire, ProcessMappingInMpichsVectorForm) {
  // srun -N2 -n4, block: 2 ranks on each of 2 nodes.
  EXPECT_EQ(pmi_process_mapping({0, 0, 1, 1}), "(vector,(0,2,2))");
  // Slurm's own -N2 -n4 layout on twonode.sh: 3 and 1.
  EXPECT_EQ(pmi_process_mapping({0, 0, 0, 1}), "(vector,(0,1,3),(1,1,1))");
  // Cyclic: one rank per node, round and round.
  EXPECT_EQ(pmi_process_mapping({0, 1, 0, 1}), "(vector,(0,2,1),(0,2,1))");
  EXPECT_EQ(pmi_process_mapping({0}), "(vector,(0,1,1))");
}

}  // namespace
}  // namespace fairway::agent
