#include <gtest/gtest.h>

#include <set>
#include <variant>

#include "shared/wire/codec.h"
#include "shared/wire/envelope.h"
#include "wire_test_util.h"

namespace fairway::wire {
namespace {

using testing::equal;
using testing::sample_messages;

bool same_message(const Message& a, const Message& b) {
  if (a.index() != b.index()) return false;
  return std::visit([&](const auto& x) { return equal(x, std::get<std::decay_t<decltype(x)>>(b)); }, a);
}

TEST(WireRoundTrip, EveryMessageSurvivesEncodeDecode) {
  for (const Message& m : sample_messages()) {
    SCOPED_TRACE(std::string(to_string(message_type(m))));
    const std::string frame = encode(m);
    ASSERT_LE(frame.size(), kMaxFrameBytes);
    auto back = decode(frame);
    ASSERT_TRUE(back.has_value()) << back.error().message;
    EXPECT_EQ(message_type(*back), message_type(m));
    EXPECT_TRUE(same_message(*back, m));
    // Encoding is deterministic, so a decoded message re-encodes to the same bytes.
    EXPECT_EQ(encode(*back), frame);
  }
}

TEST(WireRoundTrip, SamplesCoverEveryMessageType) {
  std::set<MessageType> seen;
  for (const Message& m : sample_messages()) seen.insert(message_type(m));
  EXPECT_EQ(seen.size(), std::variant_size_v<Message>);
}

TEST(WireRoundTrip, DefaultConstructedMessagesRoundTrip) {
  const std::vector<Message> defaults = {
      AgentRegister{},       Heartbeat{},    JobStatusUpdate{},  LaunchJob{},
      SignalJob{},           Ack{},          ErrorReply{},       SubmitRequest{},
      SubmitReply{},         JobQuery{},     JobQueryReply{},    JobControl{},
      JobControlReply{},     NodeQuery{},    NodeQueryReply{},   SubmitBatch{},
      SubmitBatchReply{},    NodeControl{},  NodeControlReply{}, AuthenticatedRequest{},
      HeartbeatReply{},      MetricsQuery{}, MetricsReply{},     PartitionQuery{},
      PartitionQueryReply{}, SharesQuery{},  SharesReply{},      JobUpdate{},
      SetTimeLimit{},        SendSignal{},   ReservationQuery{}, ReservationQueryReply{},
      StepRequest{},         StepReply{},    LaunchStep{},       StepIo{}};
  for (const Message& m : defaults) {
    SCOPED_TRACE(std::string(to_string(message_type(m))));
    auto back = decode(encode(m));
    ASSERT_TRUE(back.has_value()) << back.error().message;
    EXPECT_TRUE(same_message(*back, m));
  }
}

TEST(WireRoundTrip, EveryJobStateRoundTripsByName) {
  for (int s = 0; s <= static_cast<int>(kLastJobState); ++s) {
    JobStatusUpdate m = testing::sample_status(false);
    m.state = static_cast<JobState>(s);
    auto back = decode(encode(m));
    ASSERT_TRUE(back.has_value()) << back.error().message;
    EXPECT_EQ(std::get<JobStatusUpdate>(*back).state, m.state);
  }
}

// A status report names the run it is about; an older agent's, without the key, names none.
TEST(WireRoundTrip, AStatusReportsAttemptRoundTripsAndIsAbsentWhenUnset) {
  JobStatusUpdate m = testing::sample_status(false);
  for (std::optional<std::int32_t> attempt :
       {std::optional<std::int32_t>(), std::optional<std::int32_t>(0), std::optional<std::int32_t>(7),
        std::optional<std::int32_t>(std::numeric_limits<std::int32_t>::max())}) {
    m.attempt = attempt;
    const std::string frame = encode(m);
    EXPECT_EQ(frame.find("attempt") != std::string::npos, attempt.has_value());
    auto back = decode(frame);
    ASSERT_TRUE(back.has_value()) << back.error().message;
    EXPECT_EQ(std::get<JobStatusUpdate>(*back).attempt, attempt);
  }
}

TEST(WireRoundTrip, ExtremeIntegersSurvive) {
  RunningJob r{JobId(~std::uint64_t{0}),
               {0, 2147483647},
               {0},
               Time::from_seconds(std::numeric_limits<std::int64_t>::min()),
               std::numeric_limits<std::int64_t>::max()};
  AgentRegister m = testing::sample_agent_register();
  m.running = {r};
  auto back = decode(encode(m));
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(std::get<AgentRegister>(*back).running, m.running);

  LaunchJob l = testing::sample_launch();
  l.time_limit = Duration::infinite();
  auto lb = decode(encode(l));
  ASSERT_TRUE(lb.has_value()) << lb.error().message;
  EXPECT_TRUE(std::get<LaunchJob>(*lb).time_limit.is_infinite());
}

TEST(WireRoundTrip, LargeScriptWithinFrameLimit) {
  LaunchJob m = testing::sample_launch();
  m.program.script.assign(std::size_t{3} << 20, 'x');  // above the per-string limit; scripts may be
  auto back = decode(encode(m));
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(std::get<LaunchJob>(*back).program.script.size(), m.program.script.size());
}

TEST(WireRoundTrip, MessageTypeNames) {
  EXPECT_EQ(to_string(MessageType::kAgentRegister), "AgentRegister");
  EXPECT_EQ(to_string(MessageType::kSubmitReply), "SubmitReply");
  EXPECT_EQ(static_cast<int>(message_type(Message{SubmitReply{}})), 9);
  EXPECT_EQ(static_cast<int>(message_type(Message{AgentRegister{}})), 1);
  EXPECT_EQ(to_string(MessageType::kJobQuery), "JobQuery");
  EXPECT_EQ(to_string(MessageType::kSubmitBatchReply), "SubmitBatchReply");
  EXPECT_EQ(static_cast<int>(message_type(Message{JobQuery{}})), 10);
  EXPECT_EQ(static_cast<int>(message_type(Message{NodeQueryReply{}})), 15);
  EXPECT_EQ(static_cast<int>(message_type(Message{SubmitBatchReply{}})), 17);
}

}  // namespace
}  // namespace fairway::wire
