// libFuzzer target for fairway::wire::decode: any byte string must decode or be rejected,
// never crash, and whatever decodes must re-encode into a frame that decodes again.
// Built and run by tests/fuzz/run_wire_fuzz.sh; single-threaded like libFuzzer's driver.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "shared/wire/codec.h"
#include "tests/shared/wire/wire_test_util.h"

// With FAIRWAY_FUZZ_SEED_DIR set, writes one valid frame per sample message there, so a
// bounded run starts past the envelope instead of spending its time finding "FWY".
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("FAIRWAY_FUZZ_SEED_DIR");
  if (dir == nullptr) return 0;
  int i = 0;
  for (const auto& m : fairway::wire::testing::sample_messages()) {
    std::ofstream out(std::string(dir) + "/seed-" + std::to_string(i++) + ".fwy",
                      std::ios::binary);
    const std::string frame = fairway::wire::encode(m);
    out.write(frame.data(), static_cast<std::streamsize>(frame.size()));
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view frame(reinterpret_cast<const char*>(data), size);
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
