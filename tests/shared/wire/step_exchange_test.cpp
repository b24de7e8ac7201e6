// The allgather of a step's fences (srun's side) and the blobs it carries: every node's
// blob reaches every node once all are in, in node order; anything out of turn is refused.
#include "shared/wire/step_exchange.h"

#include <gtest/gtest.h>

namespace fairway::wire {
namespace {

TEST(FenceBlobs, JoinAndSplitAreInverse) {
  const std::vector<std::string> blobs{"abc", "", std::string("\0\1\2", 3)};
  const std::string joined = join_fence_blobs(blobs);
  EXPECT_EQ(joined.size(), 3u * 4 + 6);
  auto back = split_fence_blobs(joined, 3);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, blobs);
}

TEST(FenceBlobs, CutOrPaddedBytesAreRefusedNamingWhere) {
  const std::string joined = join_fence_blobs({"abc", "de"});
  auto cut = split_fence_blobs(joined.substr(0, joined.size() - 1), 2);
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().message.find("runs past the end"), std::string::npos) << cut.error().message;
  auto extra = split_fence_blobs(joined + "x", 2);
  ASSERT_FALSE(extra);
  EXPECT_NE(extra.error().message.find("1 bytes after the blobs of 2 nodes"), std::string::npos)
      << extra.error().message;
  // A length that claims 4 GiB is refused, not allocated.
  auto forged = split_fence_blobs(std::string("\xff\xff\xff\xff", 4), 1);
  ASSERT_FALSE(forged);
}

TEST(FencePairs, RoundTripAndNodesJoinedDecodeOneByOne) {
  const std::vector<std::pair<std::string, std::string>> a{{"P0-businesscard", "port=1 host=a"}, {"k", ""}};
  const std::vector<std::pair<std::string, std::string>> b{{"P1-businesscard", "port=2;host=b"}};
  auto back = decode_fence_pairs(encode_fence_pairs(a));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, a);
  auto nodes = split_fence_blobs(join_fence_blobs({encode_fence_pairs(a), encode_fence_pairs(b)}), 2);
  ASSERT_TRUE(nodes);
  EXPECT_EQ(*decode_fence_pairs((*nodes)[1]), b);
  auto bad = decode_fence_pairs(std::string("\0\0\0\1k\0\0", 7));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("a value length cut short"), std::string::npos) << bad.error().message;
}

TEST(FenceGather, EveryNodeGetsAllBlobsOnceTheLastIsIn) {
  FenceGather g(3);
  auto r = g.add(2, 1, "c");
  ASSERT_TRUE(r);
  EXPECT_FALSE(*r);
  r = g.add(0, 1, "a");
  ASSERT_TRUE(r);
  EXPECT_FALSE(*r);
  r = g.add(1, 1, "b");
  ASSERT_TRUE(r);
  ASSERT_TRUE(*r);
  EXPECT_EQ(**r, join_fence_blobs({"a", "b", "c"}));
  EXPECT_EQ(g.current(), 2);
  // The next fence starts empty.
  r = g.add(0, 2, "x");
  ASSERT_TRUE(r);
  EXPECT_FALSE(*r);
}

TEST(FenceGather, OutOfTurnNodesAndFencesAreRefused) {
  FenceGather g(2);
  auto out_of_range = g.add(2, 1, "");
  ASSERT_FALSE(out_of_range);
  EXPECT_EQ(out_of_range.error().message, "fence 1 from node 2: the step has nodes 0-1");
  auto ahead = g.add(0, 2, "");
  ASSERT_FALSE(ahead);
  EXPECT_EQ(ahead.error().message, "fence 2 from node 0: the step is at fence 1");
  ASSERT_TRUE(g.add(0, 1, "a"));
  auto twice = g.add(0, 1, "a");
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().message, "fence 1 from node 0: the node already entered it");
}

TEST(FenceGather, MoreThanTheBoundInOneFenceIsRefused) {
  FenceGather g(2);
  ASSERT_TRUE(g.add(0, 1, std::string(kMaxFenceBytes / 2, 'a')));
  auto over = g.add(1, 1, std::string(kMaxFenceBytes / 2, 'b'));
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, ErrorCode::kResourceExhausted);
  EXPECT_NE(over.error().message.find("published more than"), std::string::npos) << over.error().message;
}

}  // namespace
}  // namespace fairway::wire
