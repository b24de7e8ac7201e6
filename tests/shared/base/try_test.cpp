#include "shared/base/try.h"

#include <gtest/gtest.h>

#include <string>

#include "shared/base/result.h"

namespace fairway {
namespace {

Result<int> parse_positive(int v) {
  if (v <= 0) return invalid_argument("value must be positive, got " + std::to_string(v));
  return v;
}

int calls = 0;
Status count_call() {
  ++calls;
  return ok_status();
}

Result<int> doubled(int v) {
  FAIRWAY_TRY(count_call());
  FAIRWAY_TRY_ASSIGN(n, parse_positive(v));
  return n * 2;
}

Status checked(int v) {
  FAIRWAY_TRY(parse_positive(v));  // a Result's error returns from a Status function too
  return ok_status();
}

TEST(Try, ReturnsTheFirstErrorAndOtherwiseTheValue) {
  calls = 0;
  EXPECT_EQ(doubled(4), 8);
  const auto bad = doubled(-1);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad.error().message, "value must be positive, got -1");
  EXPECT_EQ(calls, 2) << "each FAIRWAY_TRY evaluates its expression once";
  EXPECT_TRUE(checked(3));
  EXPECT_EQ(checked(0).error().message, "value must be positive, got 0");
}

}  // namespace
}  // namespace fairway
