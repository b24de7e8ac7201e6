#include "shared/model/socket_fence.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

TEST(SocketFence, EveryCaseOfTheRule) {
  for (const bool gpu : {false, true}) {
    for (const bool cores : {false, true}) {
      const SocketOccupancy s{gpu, cores};
      EXPECT_TRUE(socket_fence_allows(false, SocketSlot::kCore, s));
      EXPECT_TRUE(socket_fence_allows(false, SocketSlot::kGpu, s));
      EXPECT_EQ(socket_fence_allows(true, SocketSlot::kCore, s), !gpu) << gpu << cores;
      EXPECT_EQ(socket_fence_allows(true, SocketSlot::kGpu, s), !gpu && !cores) << gpu << cores;
    }
  }
}

}  // namespace
}  // namespace fairway
