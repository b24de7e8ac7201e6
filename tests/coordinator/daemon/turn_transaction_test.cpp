// TurnTransaction on a real job store: a turn's writes commit together; a failed write,
// begin or commit fails the turn, rolls the store back and stops it for good (fail-stop),
// each counted as a store error.
#include "coordinator/daemon/turn_transaction.h"

#include <gtest/gtest.h>

#include "store_test_fixture.h"

namespace fairway::daemon {
namespace {

class TurnTransactionTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    store_ = open_store();
    ASSERT_NE(store_, nullptr);
    txn_ = std::make_unique<TurnTransaction>(*store_, counters_);
  }
  std::size_t stored_jobs() {
    auto jobs = store_->load_jobs();
    EXPECT_TRUE(jobs) << jobs.error().message;
    return jobs ? jobs->size() : 0;
  }

  std::unique_ptr<JobStore> store_;
  ServiceCounters counters_;
  std::unique_ptr<TurnTransaction> txn_;
};

TEST_F(TurnTransactionTest, ATurnThatWroteNothingCommitsNothing) {
  EXPECT_TRUE(txn_->commit());
  EXPECT_FALSE(store_->in_transaction());
  EXPECT_EQ(counters_.commit_seconds.count, 0u);
  EXPECT_TRUE(txn_->stopped());
}

TEST_F(TurnTransactionTest, TheTurnsWritesCommitTogetherAtItsEnd) {
  ASSERT_TRUE(txn_->open());
  ASSERT_TRUE(txn_->write(store_->insert_job(pending_job(JobId(1), "alice", "a")), "insert", JobId(1)));
  ASSERT_TRUE(txn_->open()) << "the open transaction is used again";
  ASSERT_TRUE(txn_->write(store_->insert_job(pending_job(JobId(2), "alice", "b")), "insert", JobId(2)));
  EXPECT_TRUE(store_->in_transaction());
  ASSERT_TRUE(txn_->commit());
  EXPECT_FALSE(store_->in_transaction());
  EXPECT_EQ(stored_jobs(), 2u);
  EXPECT_EQ(counters_.commit_seconds.count, 1u);
  EXPECT_EQ(counters_.store_errors, 0u);
  EXPECT_TRUE(txn_->stopped());
}

TEST_F(TurnTransactionTest, AFailedWriteFailsTheTurnAndNothingOfItIsCommitted) {
  ASSERT_TRUE(txn_->open());
  ASSERT_TRUE(txn_->write(store_->insert_job(pending_job(JobId(1), "alice", "a")), "insert", JobId(1)));
  EXPECT_FALSE(txn_->write(make_error(ErrorCode::kIo, "disk full"), "update", JobId(1)));
  EXPECT_FALSE(txn_->open()) << "a turn whose write failed must not write on";
  EXPECT_FALSE(txn_->commit());
  EXPECT_FALSE(store_->in_transaction());
  EXPECT_EQ(stored_jobs(), 0u) << "the write before the failed one was committed";
  ASSERT_FALSE(txn_->stopped());
  EXPECT_EQ(txn_->stopped().error().code, ErrorCode::kIo);
  EXPECT_NE(txn_->stopped().error().message.find("a write failed earlier in the turn"), std::string::npos);
  EXPECT_EQ(counters_.store_errors, 1u);
}

TEST_F(TurnTransactionTest, AFailedBeginFailsTheTurnThoughNothingIsOpen) {
  store_->fail_operation_for_test(1);
  EXPECT_FALSE(txn_->open());
  EXPECT_FALSE(store_->in_transaction());
  EXPECT_EQ(counters_.store_errors, 1u);
  EXPECT_FALSE(txn_->commit()) << "a turn whose begin failed answered";
  EXPECT_FALSE(txn_->stopped());
  EXPECT_EQ(counters_.store_errors, 2u);
}

TEST_F(TurnTransactionTest, AFailedCommitRollsBackAndStopsForGood) {
  store_->fail_next_commit_for_test();
  ASSERT_TRUE(txn_->open());
  ASSERT_TRUE(txn_->write(store_->insert_job(pending_job(JobId(1), "alice", "a")), "insert", JobId(1)));
  EXPECT_FALSE(txn_->commit());
  EXPECT_FALSE(store_->in_transaction());
  EXPECT_EQ(stored_jobs(), 0u);
  ASSERT_FALSE(txn_->stopped());
  EXPECT_NE(txn_->stopped().error().message.find("the job store could not commit"), std::string::npos);
  EXPECT_EQ(counters_.commit_seconds.count, 0u) << "a failed commit was timed as one";
  // A later turn may write and commit (the store is fine again), but the service stays
  // stopped: what memory held of the failed turn is not in the store.
  ASSERT_TRUE(txn_->open());
  EXPECT_TRUE(txn_->commit());
  EXPECT_FALSE(txn_->stopped());
}

TEST_F(TurnTransactionTest, ATurnFailedWithoutAWriteCommitsNothingOfWhatFollows) {
  txn_->fail();  // e.g. a row that could not be read back
  ASSERT_TRUE(txn_->open());
  ASSERT_TRUE(txn_->write(store_->insert_job(pending_job(JobId(1), "alice", "a")), "insert", JobId(1)));
  EXPECT_FALSE(txn_->commit());
  EXPECT_EQ(stored_jobs(), 0u);
  EXPECT_FALSE(txn_->stopped());
}

}  // namespace
}  // namespace fairway::daemon
