#include "coordinator/daemon/allocation_codec.h"

#include <gtest/gtest.h>

namespace fairway::daemon {
namespace {

using Alloc = std::vector<StoredNodeAllocation>;

std::string encode_ok(const Alloc& a) {
  auto text = encode_allocation(a);
  EXPECT_TRUE(text) << text.error().message;
  return text ? *text : std::string("<error>");
}

TEST(AllocationCodec, WritesRunsAsRangesAndRoundTrips) {
  Alloc a = {{"n01", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {0, 1}},
             {"n02", {0, 1, 2, 8, 10, 11}, {}}};
  EXPECT_EQ(encode_ok(a), "n01:0-15/0,1;n02:0-2,8,10,11/");
  auto back = decode_allocation(encode_ok(a));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, a);
}

TEST(AllocationCodec, KeepsOrderAndDuplicatesExactly) {
  Alloc a = {{"x", {7, 3, 4, 5, 5, 2, 2147483646, 2147483647}, {3, 1}}};
  auto back = decode_allocation(encode_ok(a));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, a);
}

TEST(AllocationCodec, EmptyAllocationAndEmptyNodesRoundTrip) {
  EXPECT_EQ(encode_ok({}), "");
  auto none = decode_allocation("");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  Alloc bare = {{"n1", {}, {}}};
  EXPECT_EQ(encode_ok(bare), "n1:/");
  auto back = decode_allocation("n1:/");
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, bare);
}

TEST(AllocationCodec, RefusesWhatItCouldNotReadBack) {
  for (const Alloc& bad :
       {Alloc{{"", {0}, {}}}, Alloc{{"a:b", {0}, {}}}, Alloc{{"a;b", {0}, {}}}, Alloc{{"a/b", {0}, {}}},
        Alloc{{"a,b", {0}, {}}}, Alloc{{"n1", {0, -1}, {}}}, Alloc{{"n1", {}, {-3}}}}) {
    auto text = encode_allocation(bad);
    ASSERT_FALSE(text) << "encoded as '" << *text << "'";
    EXPECT_EQ(text.error().code, ErrorCode::kInvalidArgument);
  }
  auto negative = encode_allocation({{"n7", {-2}, {}}});
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error().message.find("'n7'"), std::string::npos);
  EXPECT_NE(negative.error().message.find("-2"), std::string::npos);
}

TEST(AllocationCodec, RejectsCorruptText) {
  for (const char* bad :
       {"n1", "n1:0", ":0/", "n1:0/1/2", "n1:a/", "n1:1-/", "n1:-1/", "n1:5-3/", "n1:4-4/", "n1:1,,2/",
        "n1:+1/", "n1:0/;", "n1:0/,", "n1:99999999999/", "n1:0-2000000000/", "n1:0/;n2"}) {
    auto back = decode_allocation(bad);
    EXPECT_FALSE(back) << "'" << bad << "' decoded";
    if (!back) {
      EXPECT_EQ(back.error().code, ErrorCode::kInvalidArgument);
    }
  }
  auto bad = decode_allocation("n1:0/0;n2:x/");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("entry 1 'n2:x/'"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace fairway::daemon
