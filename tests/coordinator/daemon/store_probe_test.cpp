// StoreProbe on a real job store: a store that takes writes is not read-only; a read-only
// one is probed no more often than every kInterval, stays read-only while the probe's
// write fails (rolled back), and is writable again once one commits.
#include "coordinator/daemon/store_probe.h"

#include <gtest/gtest.h>

#include "store_test_fixture.h"

namespace fairway::daemon {
namespace {

class StoreProbeTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    store_ = open_store();
    ASSERT_NE(store_, nullptr);
  }
  std::optional<std::string> probe_mark() {
    auto v = store_->get_meta("write_probe");
    EXPECT_TRUE(v) << v.error().message;
    return v ? *v : std::nullopt;
  }

  Time t0_ = Time::from_seconds(1'700'000'000);
  std::unique_ptr<JobStore> store_;
};

TEST_F(StoreProbeTest, AStoreThatTakesWritesIsNotReadOnly) {
  StoreProbe probe(*store_, "", t0_);
  EXPECT_FALSE(probe.read_only());
  EXPECT_TRUE(probe.why().empty());
  EXPECT_FALSE(probe.writable_again());
}

TEST_F(StoreProbeTest, AReadOnlyStoreIsProbedEveryIntervalUntilAWriteCommits) {
  StoreProbe probe(*store_, "disk full", t0_);
  ASSERT_TRUE(probe.read_only());
  EXPECT_EQ(probe.why(), "disk full");

  probe.probe(t0_ + StoreProbe::kInterval - Duration::seconds(1));
  EXPECT_EQ(probe_mark(), std::nullopt) << "probed before the interval passed";

  store_->fail_operation_for_test(2);  // the probe's write
  probe.probe(t0_ + StoreProbe::kInterval);
  EXPECT_FALSE(probe.writable_again());
  EXPECT_FALSE(store_->in_transaction()) << "a failed probe left its transaction open";
  EXPECT_EQ(probe_mark(), std::nullopt);

  const Time next = t0_ + StoreProbe::kInterval * 2;
  probe.probe(next - Duration::seconds(1));
  EXPECT_EQ(probe_mark(), std::nullopt) << "probed again before the interval passed";
  probe.probe(next);
  EXPECT_TRUE(probe.writable_again());
  EXPECT_EQ(probe_mark(), std::to_string(next.seconds()));
  EXPECT_TRUE(probe.read_only()) << "the service stays read-only until the daemon reopens it";
}

}  // namespace
}  // namespace fairway::daemon
