#include "shared/base/hex.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

TEST(Hex, BytesRoundTripAsLowercaseText) {
  const std::string bytes("\x00\x01\x7f\x80\xff ok", 8);
  EXPECT_EQ(to_hex(bytes), "00017f80ff206f6b");
  EXPECT_EQ(from_hex(to_hex(bytes)), bytes);
  EXPECT_EQ(from_hex(""), std::string());
}

TEST(Hex, TextThatIsNotHexIsRefused) {
  EXPECT_FALSE(from_hex("abc"));  // odd length
  EXPECT_FALSE(from_hex("0g"));   // not a digit
  EXPECT_FALSE(from_hex("AB"));   // uppercase is not what to_hex writes
}

}  // namespace
}  // namespace fairway
