#include "coordinator/daemon/prometheus_text.h"

#include <gtest/gtest.h>

namespace fairway::daemon {
namespace {

TEST(PrometheusText, FamiliesHaveHelpTypeAndEscapedLabels) {
  wire::MetricsReply m;
  m.families.push_back({"fairway_jobs",
                        "gauge",
                        "Jobs by state\\partition\nsecond line",
                        {{"", {{"state", "pending"}, {"partition", "we\"ird\\n"}}, 12}}});
  m.families.push_back({"fairway_pass_duration_seconds",
                        "histogram",
                        "Pass time.",
                        {{"_bucket", {{"le", "0.001"}}, 3},
                         {"_bucket", {{"le", "+Inf"}}, 4},
                         {"_sum", {}, 0.0125},
                         {"_count", {}, 4}}});
  EXPECT_EQ(prometheus_text(m),
            "# HELP fairway_jobs Jobs by state\\\\partition\\nsecond line\n"
            "# TYPE fairway_jobs gauge\n"
            "fairway_jobs{state=\"pending\",partition=\"we\\\"ird\\\\n\"} 12\n"
            "# HELP fairway_pass_duration_seconds Pass time.\n"
            "# TYPE fairway_pass_duration_seconds histogram\n"
            "fairway_pass_duration_seconds_bucket{le=\"0.001\"} 3\n"
            "fairway_pass_duration_seconds_bucket{le=\"+Inf\"} 4\n"
            "fairway_pass_duration_seconds_sum 0.0125\n"
            "fairway_pass_duration_seconds_count 4\n");
}

}  // namespace
}  // namespace fairway::daemon
