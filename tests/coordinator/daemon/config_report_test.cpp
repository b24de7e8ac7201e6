#include "coordinator/daemon/config_report.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace fairway::daemon {
namespace {

std::string value_of(const wire::ConfigReply& r, const std::string& key) {
  for (const auto& e : r.entries) {
    if (e.key == key) return e.value;
  }
  return "<absent>";
}

TEST(ConfigReport, TheRunningSettingsSortedAsTheFileWritesThem) {
  Config c;
  c.cluster_name = "kebnekaise";
  c.coordinator.first_job_id = 25000;
  c.agent.kill_grace = Duration::seconds(30);
  c.scheduler.backfill = BackfillMode::kConservative;
  c.scheduler.reserve_after_wait = Duration::hours(48);
  c.scheduler.runtime_prediction = RuntimePrediction::kUserLast2;
  c.coordinator.keep_finished = Duration::infinite();
  c.security.coordinator_secret_key = "/etc/fairway/keys/coordinator.key";
  const wire::ConfigReply r = config_report(c, Time::from_seconds(100));
  EXPECT_EQ(r.now, Time::from_seconds(100));
  EXPECT_TRUE(std::is_sorted(r.entries.begin(), r.entries.end(),
                             [](const auto& a, const auto& b) { return a.key < b.key; }));
  EXPECT_EQ(value_of(r, "cluster.name"), "kebnekaise");
  EXPECT_EQ(value_of(r, "coordinator.first_job_id"), "25000");
  EXPECT_EQ(value_of(r, "agent.kill_grace"), "30s");
  EXPECT_EQ(value_of(r, "scheduler.backfill"), "conservative");
  EXPECT_EQ(value_of(r, "scheduler.reserve_after_wait"), "172800s");
  EXPECT_EQ(value_of(r, "scheduler.reservation_depth"), "none");
  EXPECT_EQ(value_of(r, "scheduler.runtime_prediction"), "user_last_2");
  EXPECT_EQ(value_of(r, "scheduler.backfill_order"), "priority");
  EXPECT_EQ(value_of(r, "coordinator.keep_finished"), "UNLIMITED");
  // Anyone may ask: nothing about the keys is said, not even where they are.
  for (const auto& e : r.entries) {
    EXPECT_FALSE(e.key.starts_with("security.") && e.key != "security.private_data") << e.key;
    EXPECT_EQ(e.value.find("/etc/fairway/keys"), std::string::npos) << e.key;
  }
}

}  // namespace
}  // namespace fairway::daemon
