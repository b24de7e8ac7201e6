// AgentChannel alone, without a service: which frames it admits and as whose, what it
// refuses (and answers, on which connection), and where it sends a node's frames.
#include <gtest/gtest.h>

#include "coordinator/daemon/agent_channel.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

wire::Message registration(const std::string& node) {
  return wire::AgentRegister{node, "test", NodeTopology::uniform(node, 1, 4), {}, ""};
}
wire::Message heartbeat(const std::string& node) {
  wire::Heartbeat h;
  h.node = node;
  h.seq = 7;
  return h;
}
Outgoing to(const std::string& node) {
  return {Channel::kAgents, node, wire::encode(wire::Ack{0}), {}};
}
std::optional<wire::ErrorReply> error_in(const Outgoing& o) {
  auto m = wire::decode(o.frame);
  if (!m || !std::holds_alternative<wire::ErrorReply>(*m)) return std::nullopt;
  return std::get<wire::ErrorReply>(*m);
}

class AgentChannelAdmit : public ::testing::Test {
 protected:
  std::optional<AgentChannel::Admitted> admit(AgentChannel& c, const std::string& route,
                                              const wire::Message& m, const std::string& key_of) {
    return c.admit(route, wire::encode(m), key_of, counters_, out_);
  }
  ServiceCounters counters_;
  std::vector<Outgoing> out_;
};

TEST_F(AgentChannelAdmit, WithoutCurveTheRoutingIdIsTheNodeAndItsFramesGoThere) {
  AgentChannel c(false);
  auto a = admit(c, "n1", registration("n1"), "");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->node, "n1");
  EXPECT_TRUE(std::holds_alternative<wire::AgentRegister>(a->message));
  std::vector<Outgoing> sent{to("n1"), {Channel::kClients, "c1", "x", {}}};
  c.address(sent);
  EXPECT_EQ(sent[0].route, "n1");
  EXPECT_EQ(sent[1].route, "") << "a client's frame is not the agent channel's";
  EXPECT_EQ(counters_.impostor_frames, 0u);
}

TEST_F(AgentChannelAdmit, AnUndecodableFrameIsCountedAndNotServed) {
  AgentChannel c(true);
  EXPECT_FALSE(c.admit("r1", "\xff\x01garbage", "n1", counters_, out_));
  EXPECT_EQ(counters_.bad_frames, 1u);
  EXPECT_TRUE(out_.empty());
}

TEST_F(AgentChannelAdmit, WithCurveAConnectionWithoutANodesKeyIsRefusedUnanswered) {
  AgentChannel c(true);
  EXPECT_FALSE(admit(c, "n1", registration("n1"), ""));
  EXPECT_EQ(counters_.impostor_frames, 1u);
  EXPECT_TRUE(out_.empty());
}

TEST_F(AgentChannelAdmit, WithCurveAFrameIsTheKeysNodeAndAKeySpeakingForAnotherIsRefused) {
  AgentChannel c(true);
  // n2's key on a connection that calls itself "n1", sending n1's registration.
  EXPECT_FALSE(admit(c, "n1", registration("n1"), "n2"));
  EXPECT_EQ(counters_.impostor_frames, 1u);
  EXPECT_TRUE(out_.empty()) << "never answered";
  // The same key speaking for itself is n2's, whatever its routing id says.
  auto a = admit(c, "n1", registration("n2"), "n2");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->node, "n2");
  std::vector<Outgoing> sent{to("n2"), to("n1")};
  c.address(sent);
  EXPECT_EQ(sent[0].route, "n1") << "n2's frames go to the connection its key registered on";
  EXPECT_EQ(sent[1].route, "") << "n1 has no connection of its key: its frame is not sent";
}

TEST_F(AgentChannelAdmit, ANewConnectionIsAnsweredThereUntilItRegistersAndThenReplacesTheOld) {
  AgentChannel c(true);
  ASSERT_TRUE(admit(c, "r1", registration("n1"), "n1"));
  // A heartbeat on a second connection of the key: answered on that one only.
  EXPECT_FALSE(admit(c, "r2", heartbeat("n1"), "n1"));
  ASSERT_EQ(out_.size(), 1u);
  EXPECT_EQ(out_[0].route, "r2");
  ASSERT_TRUE(error_in(out_[0]));
  EXPECT_EQ(error_in(out_[0])->code, ErrorCode::kFailedPrecondition);
  out_.clear();
  // Its registration replaces r1, which is told so and never served again.
  ASSERT_TRUE(admit(c, "r2", registration("n1"), "n1"));
  ASSERT_EQ(out_.size(), 1u);
  EXPECT_EQ(out_[0].route, "r1");
  ASSERT_TRUE(error_in(out_[0]));
  EXPECT_EQ(error_in(out_[0])->code, ErrorCode::kPermissionDenied);
  EXPECT_FALSE(admit(c, "r1", heartbeat("n1"), "n1"));
  EXPECT_EQ(counters_.impostor_frames, 1u);
  std::vector<Outgoing> sent{to("n1")};
  c.address(sent);
  EXPECT_EQ(sent[0].route, "r2");
}

TEST_F(AgentChannelAdmit, AFrameAlreadyAddressedKeepsItsRoute) {
  AgentChannel c(true);
  ASSERT_TRUE(admit(c, "r1", registration("n1"), "n1"));
  std::vector<Outgoing> sent{{Channel::kAgents, "n1", "x", "r9"}};
  c.address(sent);
  EXPECT_EQ(sent[0].route, "r9");
}

}  // namespace
}  // namespace fairway::daemon
