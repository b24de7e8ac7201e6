// Fair-share usage rebuilt after a restart equals the usage the live scheduler had, even
// when a restored running job started before a finished run ended (charged in time order).
#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

TEST(UsageRestore, RebuiltUsageMatchesTheLiveLedger) {
  for (const bool windowed : {false, true}) {
    Config c = testing::uniform_cluster(1, 1, 8, BackfillMode::kEasy);
    c.fairshare.half_life = Duration::hours(6);
    if (windowed) c.fairshare.window = Duration::days(1);
    auto live = testing::make(c);
    ASSERT_TRUE(live->submit(testing::job(1, 4, 3600), T(0)));
    ASSERT_EQ(live->schedule(T(0)).started.size(), 1u);
    ASSERT_TRUE(live->submit(testing::job(2, 4, 36000, 1800), T(1800)));
    ASSERT_EQ(live->schedule(T(1800)).started.size(), 1u);
    ASSERT_TRUE(live->finish(JobId(1), JobState::kCompleted, T(3600)));
    const JobRecord* running = live->job(JobId(2));
    const AssociationIndex a = running->association;
    const double expected = live->fair_share().user_usage(a, T(7200));
    ASSERT_GT(expected, 0);

    auto restored = testing::make(c);
    restored->begin_restore();
    ASSERT_TRUE(
        restored->restore_running(testing::stored_running(running->spec, running->allocation, T(1800))));
    restored->restore_finished_usage("proj", "alice", 4, {}, 0, T(0), T(3600));
    restored->end_restore();
    const JobRecord* again = restored->job(JobId(2));
    EXPECT_NEAR(restored->fair_share().user_usage(again->association, T(7200)), expected, expected * 1e-9)
        << (windowed ? "windowed" : "decayed");
  }
}

}  // namespace
}  // namespace fairway
