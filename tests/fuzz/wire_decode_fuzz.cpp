// libFuzzer target for fairway::wire::decode: any byte string must decode or be rejected,
// never crash, and whatever decodes must re-encode into a frame that decodes again. The
// same bytes also go to a job step's stream reader (step_stream.h), whole and in two cuts,
// and to the job store's request and node record readers (a damaged store is hostile input too).
// Built and run by tests/fuzz/run_wire_fuzz.sh; single-threaded like libFuzzer's driver.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "coordinator/daemon/known_nodes.h"
#include "coordinator/daemon/stored_request.h"
#include "shared/base/hex.h"
#include "shared/net/step_stream.h"
#include "shared/wire/codec.h"
#include "tests/shared/wire/wire_test_util.h"

// With FAIRWAY_FUZZ_SEED_DIR set, writes one valid frame per sample message there, so a
// bounded run starts past the envelope instead of spending its time finding "FWY".
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("FAIRWAY_FUZZ_SEED_DIR");
  if (dir == nullptr) return 0;
  int i = 0;
  for (const auto& m : fairway::wire::testing::sample_messages()) {
    std::ofstream out(std::string(dir) + "/seed-" + std::to_string(i++) + ".fwy", std::ios::binary);
    const std::string frame = fairway::wire::encode(m);
    out.write(frame.data(), static_cast<std::streamsize>(frame.size()));
    // A store record: the same request as the job store keeps it.
    if (const auto* submit = std::get_if<fairway::wire::SubmitRequest>(&m)) {
      std::ofstream record(std::string(dir) + "/seed-" + std::to_string(i++) + ".job", std::ios::binary);
      const std::string bytes = fairway::daemon::encode_stored_request(*submit);
      record.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    // A step's stream: the same message behind its length, when it is one of the stream's.
    if (const auto* io = std::get_if<fairway::wire::StepIo>(&m)) {
      std::ofstream stream(std::string(dir) + "/seed-" + std::to_string(i++) + ".step", std::ios::binary);
      const std::string framed = fairway::net::step_frame(*io) + fairway::net::step_frame(*io);
      stream.write(framed.data(), static_cast<std::streamsize>(framed.size()));
    }
  }
  return 0;
}

namespace {

// Reads frames until the stream wants more or refuses; a refusal must say it is the
// stream's, and what it gives back must be a StepIo that re-encodes.
void read_step_stream(std::string_view first, std::string_view second) {
  fairway::net::StepStreamReader reader;
  for (std::string_view part : {first, second}) {
    reader.feed(part);
    while (true) {
      auto m = reader.next();
      if (!m) {
        if (m.error().message.rfind("step stream: ", 0) != 0) __builtin_trap();
        return;
      }
      if (!*m) break;
      if (fairway::net::step_frame(**m).size() < 5) __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view frame(reinterpret_cast<const char*>(data), size);
  read_step_stream(frame, {});
  read_step_stream(frame.substr(0, size / 2), frame.substr(size / 2));
  // Whatever record decodes must write back as a record that decodes to the same bytes.
  if (auto stored = fairway::daemon::decode_stored_request(frame)) {
    const std::string again = fairway::daemon::encode_stored_request(*stored);
    auto redecoded = fairway::daemon::decode_stored_request(again);
    if (!redecoded || fairway::daemon::encode_stored_request(*redecoded) != again) __builtin_trap();
  } else if (stored.error().message.rfind("stored request", 0) != 0) {
    __builtin_trap();
  }
  // And a remembered node's record: the bytes as its text, and their hex (the record itself).
  for (const std::string& record : {std::string(frame), fairway::to_hex(frame)}) {
    if (auto node = fairway::daemon::parse_known_node_record(record)) {
      if (!fairway::daemon::parse_known_node_record(fairway::daemon::known_node_record(*node)))
        __builtin_trap();
    }
  }
  auto decoded = fairway::wire::decode(frame);
  if (!decoded) {
    if (decoded.error().message.rfind("wire: ", 0) != 0) __builtin_trap();
    return 0;
  }
  const std::string again = fairway::wire::encode(*decoded);
  auto redecoded = fairway::wire::decode(again);
  if (!redecoded || redecoded->index() != decoded->index()) __builtin_trap();
  // Encoding is deterministic, so a second round must reproduce the same bytes.
  if (fairway::wire::encode(*redecoded) != again) __builtin_trap();
  return 0;
}
