#include "shared/net/step_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "shared/wire/codec.h"

namespace fairway::net {
namespace {

using wire::StepIo;
using wire::StepIoKind;

TEST(StepStream, FramesComeBackWholeHoweverTheBytesAreCut) {
  const std::vector<StepIo> sent = {{StepIoKind::kHello, 1, 4, 2, "key"},
                                    {StepIoKind::kStdout, 1, 5, 0, std::string("a\0b\n", 4)},
                                    {StepIoKind::kExit, 1, 5, -9, ""}};
  std::string bytes;
  for (const StepIo& m : sent) bytes += step_frame(m);
  for (std::size_t cut = 1; cut <= bytes.size(); ++cut) {
    StepStreamReader r;
    std::vector<StepIo> got;
    for (std::size_t at = 0; at < bytes.size(); at += cut) {
      r.feed(std::string_view(bytes).substr(at, cut));
      while (true) {
        auto m = r.next();
        ASSERT_TRUE(m) << m.error().message;
        if (!*m) break;
        got.push_back(**m);
      }
    }
    ASSERT_EQ(got, sent) << "cut every " << cut << " bytes";
  }
}

TEST(StepStream, HostileFramesAreErrorsNotCrashes) {
  StepStreamReader oversized;
  oversized.feed(std::string("\x7f\xff\xff\xff", 4));
  auto m = oversized.next();
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("frame of 2147483647 bytes"), std::string::npos) << m.error().message;

  StepStreamReader empty;
  empty.feed(std::string(4, '\0'));
  EXPECT_FALSE(empty.next());

  StepStreamReader garbage;
  garbage.feed(std::string("\0\0\0\5hello", 9));
  EXPECT_FALSE(garbage.next());

  // A well-formed frame of another message is not part of a step's stream.
  const std::string other = wire::encode(wire::Ack{7});
  std::string framed = {0, 0, 0, static_cast<char>(other.size())};
  StepStreamReader wrong;
  wrong.feed(framed + other);
  auto w = wrong.next();
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message.find("unexpected Ack"), std::string::npos) << w.error().message;
}

TEST(StepStream, AddressesAreCheckedAndALocalListenerIsReachable) {
  EXPECT_FALSE(parse_tcp_address("ipc:///tmp/x"));
  EXPECT_FALSE(parse_tcp_address("tcp://host"));
  EXPECT_FALSE(parse_tcp_address("tcp://host:0"));
  EXPECT_FALSE(parse_tcp_address("tcp://host:70000"));
  auto v6 = parse_tcp_address("tcp://[::1]:4000");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->first, "::1");
  EXPECT_EQ(v6->second, 4000);

  auto listening = listen_step_stream("127.0.0.1");
  ASSERT_TRUE(listening) << listening.error().message;
  EXPECT_TRUE(listening->second.starts_with("tcp://127.0.0.1:"));
  auto fd = connect_step_stream(listening->second, 2000);
  ASSERT_TRUE(fd) << fd.error().message;
  EXPECT_TRUE(write_all(*fd, step_frame({StepIoKind::kPing, 0, 0, 0, ""})));
  ::close(*fd);
  ::close(listening->first);
  EXPECT_EQ(*local_address_towards("127.0.0.1"), "127.0.0.1");
}

}  // namespace
}  // namespace fairway::net
