#include "agent/core/slot_ledger.h"

#include <gtest/gtest.h>

namespace fairway::agent {
namespace {

// Two sockets of 4 cores (0-3, 4-7), one GPU per socket (GPU 0 on socket 0, GPU 1 on 1).
SlotLedger two_socket_gpu_node() {
  return SlotLedger(NodeTopology::uniform("gpu01", 2, 4, 1, "a100"));
}

TEST(SlotLedgerTest, AcquireAndReleaseTrackHolders) {
  SlotLedger ledger = two_socket_gpu_node();
  ASSERT_TRUE(ledger.acquire(JobId(1), {0, 1}, {0}));
  EXPECT_TRUE(ledger.holds(JobId(1)));
  EXPECT_EQ(ledger.core_holder(1), JobId(1));
  EXPECT_EQ(ledger.gpu_holder(0), JobId(1));
  EXPECT_EQ(ledger.core_holder(2), std::nullopt);
  EXPECT_EQ(ledger.free_cores(), 6);
  EXPECT_EQ(ledger.free_gpus(), 1);
  EXPECT_TRUE(ledger.release(JobId(1)));
  EXPECT_FALSE(ledger.release(JobId(1)));
  EXPECT_EQ(ledger.free_cores(), 8);
  EXPECT_EQ(ledger.core_holder(1), std::nullopt);
  EXPECT_TRUE(ledger.jobs().empty());
}

TEST(SlotLedgerTest, RefusesHeldCoreNamingJobAndCore) {
  SlotLedger ledger(NodeTopology::uniform("cpu01", 2, 4));
  ASSERT_TRUE(ledger.acquire(JobId(7), {4, 5}, {}));
  const Status s = ledger.acquire(JobId(8), {3, 5}, {});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kResourceExhausted);
  EXPECT_NE(s.error().message.find("job 8"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("core 5"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("job 7"), std::string::npos) << s.error().message;
  // A refused acquire takes nothing.
  EXPECT_EQ(ledger.core_holder(3), std::nullopt);
  EXPECT_FALSE(ledger.holds(JobId(8)));
}

TEST(SlotLedgerTest, RefusesHeldGpu) {
  SlotLedger ledger = two_socket_gpu_node();
  ASSERT_TRUE(ledger.acquire(JobId(1), {0}, {0}));
  const Status s = ledger.acquire(JobId(2), {4}, {0});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("GPU 0 is held by job 1"), std::string::npos) << s.error().message;
}

TEST(SlotLedgerTest, GpuHolderKeepsTheRestOfItsSocket) {
  SlotLedger ledger = two_socket_gpu_node();
  ASSERT_TRUE(ledger.acquire(JobId(1), {0}, {0}));
  const Status s = ledger.acquire(JobId(2), {2}, {});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("core 2 is on socket 0, reserved by job 1"), std::string::npos)
      << s.error().message;
  EXPECT_NE(s.error().message.find("GPU 0"), std::string::npos) << s.error().message;
  // The other socket is free for CPU work.
  EXPECT_TRUE(ledger.acquire(JobId(2), {4, 5}, {}));
}

// With the coordinator's socket_exclusive_gpus off, the agent takes the placement as made:
// one rule on both sides, so no job is refused (and FAILED) for a rule placement did not use.
TEST(SlotLedgerTest, WithoutFencingACoreBesideAnotherJobsGpuIsFree) {
  SlotLedger ledger = two_socket_gpu_node();
  ASSERT_TRUE(ledger.acquire(JobId(1), {0}, {0}, false));
  EXPECT_TRUE(ledger.acquire(JobId(2), {1, 2}, {}, false));
  EXPECT_FALSE(ledger.acquire(JobId(3), {2}, {}, false)) << "held cores stay held";
}

TEST(SlotLedgerTest, GpuJobMayTakeCoresOnItsOwnSocket) {
  SlotLedger ledger = two_socket_gpu_node();
  EXPECT_TRUE(ledger.acquire(JobId(1), {0, 1, 2, 3}, {0}));
}

// The ledger took a GPU beside another job's cores, which placement never gives (the GPU
// job could not keep its socket): one rule on both sides now (shared/model/socket_fence.h).
TEST(SlotLedgerTest, AGpuBesideAnotherJobsCoresIsRefusedAsPlacementRefusesIt) {
  SlotLedger ledger = two_socket_gpu_node();
  ASSERT_TRUE(ledger.acquire(JobId(1), {0, 1}, {}));
  const Status s = ledger.acquire(JobId(2), {2}, {0});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kResourceExhausted);
  EXPECT_NE(s.error().message.find("GPU 0 is on socket 0, where job 1 holds core 0"), std::string::npos)
      << s.error().message;
  EXPECT_TRUE(ledger.acquire(JobId(2), {2}, {0}, false))
      << "unfenced, the socket's other holders do not matter";
  ASSERT_TRUE(ledger.release(JobId(2)));
  // The job's own cores on the socket do not close its GPU; once job 1 ends the socket is open.
  ASSERT_TRUE(ledger.release(JobId(1)));
  EXPECT_TRUE(ledger.acquire(JobId(2), {0, 1, 2}, {0}));
  EXPECT_FALSE(ledger.acquire(JobId(3), {3}, {})) << "the GPU job keeps its socket's last core";
}

TEST(SlotLedgerTest, RefusesOutOfRangeAndRepeatedSlots) {
  SlotLedger ledger = two_socket_gpu_node();
  Status s = ledger.acquire(JobId(1), {8}, {});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(s.error().message.find("core 8 does not exist"), std::string::npos);
  s = ledger.acquire(JobId(1), {-1}, {});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("core -1"), std::string::npos);
  s = ledger.acquire(JobId(1), {}, {2});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("GPU 2 does not exist"), std::string::npos);
  s = ledger.acquire(JobId(1), {1, 1}, {});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("core 1 is listed twice"), std::string::npos);
  s = ledger.acquire(JobId(1), {}, {1, 1});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("GPU 1 is listed twice"), std::string::npos);
  EXPECT_EQ(ledger.free_cores(), 8);
}

TEST(SlotLedgerTest, RefusesSecondAcquireForTheSameJob) {
  SlotLedger ledger = two_socket_gpu_node();
  ASSERT_TRUE(ledger.acquire(JobId(1), {0}, {}));
  const Status s = ledger.acquire(JobId(1), {5}, {});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kAlreadyExists);
  EXPECT_EQ(ledger.core_holder(5), std::nullopt);
}

TEST(SlotLedgerTest, CheckDoesNotTake) {
  SlotLedger ledger = two_socket_gpu_node();
  const std::vector<std::int32_t> cores{0, 1};
  const std::vector<std::int32_t> gpus{0};
  EXPECT_TRUE(ledger.check(JobId(1), cores, gpus));
  EXPECT_FALSE(ledger.holds(JobId(1)));
  EXPECT_EQ(ledger.free_cores(), 8);
}

}  // namespace
}  // namespace fairway::agent
