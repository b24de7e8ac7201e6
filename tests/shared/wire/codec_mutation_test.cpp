#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "shared/wire/codec.h"
#include "wire_test_util.h"

namespace fairway::wire {
namespace {

// Bytes that steer msgpack's parser into its interesting paths: 32-bit lengths, the
// reserved 0xc1, maps, nil, and type/version values next to the valid ones.
constexpr std::uint8_t kInteresting[] = {0x00, 0x01, 0x02, 0x09, 0x0a, 0x7f, 0x80, 0x8f, 0x90,
                                         0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xcb, 0xcf, 0xd3,
                                         0xd9, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xff};

std::string mutate(std::string s, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const std::size_t pos = s.empty() ? 0 : rng() % s.size();
    const auto byte = [&] {
      return static_cast<char>(rng() % 2 == 0 ? kInteresting[rng() % sizeof(kInteresting)]
                                              : static_cast<std::uint8_t>(rng()));
    };
    switch (rng() % 5) {
      case 0:
        if (!s.empty()) s[pos] = static_cast<char>(s[pos] ^ static_cast<char>(1 << (rng() % 8)));
        break;
      case 1:
        if (!s.empty()) s[pos] = byte();
        break;
      case 2:
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(pos), byte());
        break;
      case 3:
        if (!s.empty()) s.erase(pos, 1 + rng() % 4);
        break;
      default:
        // Duplicate a slice: repeats map entries and array elements.
        if (!s.empty()) s.insert(pos, s.substr(rng() % s.size(), 1 + rng() % 16));
        break;
    }
  }
  return s;
}

TEST(WireMutation, MutatedFramesNeverCrash) {
  constexpr int kIterationsPerFrame = 1000;
  std::mt19937_64 rng(20261122);
  int ok = 0;
  int rejected = 0;
  for (const Message& m : testing::sample_messages()) {
    const std::string frame = encode(m);
    for (int i = 0; i < kIterationsPerFrame; ++i) {
      const std::string mutated = mutate(frame, rng);
      auto r = decode(mutated);
      if (r.has_value()) {
        ++ok;
        // Whatever survives decoding must be encodable and decode to the same type again.
        auto again = decode(encode(*r));
        ASSERT_TRUE(again.has_value()) << again.error().message;
        EXPECT_EQ(message_type(*again), message_type(*r));
      } else {
        ++rejected;
        EXPECT_EQ(r.error().message.rfind("wire: ", 0), 0u) << r.error().message;
      }
    }
  }
  EXPECT_EQ(ok + rejected, kIterationsPerFrame * static_cast<int>(testing::sample_messages().size()));
  EXPECT_GT(rejected, ok);
  std::printf("mutation: %d decoded, %d rejected\n", ok, rejected);
}

}  // namespace
}  // namespace fairway::wire
