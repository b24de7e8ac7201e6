// libFuzzer target for the ZMTP framing the coordinator's local router reads from any
// local user: any byte stream must parse into frames or be refused, never read out of
// bounds, and a frame must be found the same way whether its bytes come at once or not.
// Built and run by tests/fuzz/run_wire_fuzz.sh zmtp; single-threaded like libFuzzer's driver.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "shared/net/zmtp_frames.h"

using namespace fairway::net;

// With FAIRWAY_FUZZ_SEED_DIR set, writes what a DEALER sends (greeting, READY, a short and
// a long frame, a PING), so a bounded run starts past the handshake.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("FAIRWAY_FUZZ_SEED_DIR");
  if (dir == nullptr) return 0;
  std::string ping = "\x04PING";
  ping += std::string("\x00\x0a", 2) + "context";
  const std::string stream = zmtp::greeting() + zmtp::ready_frame("DEALER") + zmtp::frame_header(0, 3) +
                             "abc" + zmtp::frame_header(zmtp::kMore, 300) + std::string(300, 'x') +
                             zmtp::frame_header(zmtp::kCommand, ping.size()) + ping +
                             zmtp::error_frame("why");
  std::ofstream(std::string(dir) + "/seed-dealer.zmtp", std::ios::binary) << stream;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  if (in.size() >= zmtp::kGreetingSize) {
    (void)zmtp::check_greeting(in.substr(0, zmtp::kGreetingSize));
    if (!in.empty() && in[0] == '\xff') in.remove_prefix(zmtp::kGreetingSize);
  }
  constexpr std::uint64_t kMax = 1 << 16;
  while (!in.empty()) {
    const zmtp::ParsedFrame f = zmtp::parse_frame(in, kMax);
    if (f.kind != zmtp::ParsedFrame::Kind::kFrame) break;
    if (f.consumed > in.size() || f.consumed < 2 || f.body.size() > kMax) __builtin_trap();
    if (f.body.data() < in.data() || f.body.data() + f.body.size() > in.data() + f.consumed) __builtin_trap();
    // Any shorter prefix of the same frame must ask for more bytes, never yield a frame.
    for (std::size_t cut : {std::size_t{1}, f.consumed / 2, f.consumed - 1}) {
      if (cut == 0 || cut >= f.consumed) continue;
      const zmtp::ParsedFrame part = zmtp::parse_frame(in.substr(0, cut), kMax);
      if (part.kind != zmtp::ParsedFrame::Kind::kNeedMore) __builtin_trap();
      // Once its header is in, the frame's whole length is known (the router sizes its
      // buffer and checks the uid's budget from it), and it is this frame's.
      if (part.needed != 0 && part.needed != f.consumed) __builtin_trap();
    }
    if ((f.flags & zmtp::kCommand) != 0) {
      (void)zmtp::command_name(f.body);
      (void)zmtp::ready_properties(f.body);
      (void)zmtp::error_reason(f.body);
      (void)zmtp::pong_frame(f.body);
    }
    in.remove_prefix(f.consumed);
  }
  return 0;
}
