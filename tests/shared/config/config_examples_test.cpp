// The configuration files the project ships (examples/sim, the reference's complete
// example) must stay valid and mean what their comments say as the schema evolves.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "config_test_util.h"
#include "shared/config/config.h"
#include "shared/config/config_file.h"

namespace fairway {
namespace {

using Names = std::vector<std::string>;

// The replay policies of docs/architecture.md section 7.1: submit-order priority, no nodes, no limits.
TEST(ConfigExamples, SimPoliciesParse) {
  const std::string dir = std::string(FAIRWAY_SOURCE_DIR) + "/examples/sim/";
  struct Case {
    const char* file;
    BackfillMode mode;
  };
  for (const Case& c : {Case{"fcfs.toml", BackfillMode::kNone}, Case{"easy.toml", BackfillMode::kEasy},
                        Case{"conservative.toml", BackfillMode::kConservative}}) {
    SCOPED_TRACE(c.file);
    auto r = load_config_file(dir + c.file);
    ASSERT_TRUE(r.has_value()) << r.error().message;
    const Config& cfg = *r;
    EXPECT_EQ(cfg.scheduler.backfill, c.mode);
    EXPECT_TRUE(cfg.nodes.empty());
    EXPECT_EQ(cfg.priority.age_per_minute, 1.0);
    EXPECT_TRUE(cfg.priority.age_cap.is_infinite());
    EXPECT_EQ(cfg.priority.fairshare, 0.0);
    EXPECT_EQ(cfg.priority.size, 0.0);
    EXPECT_EQ(cfg.priority.partition, 0.0);
    EXPECT_EQ(cfg.priority.qos, 0.0);
    EXPECT_TRUE(cfg.qos.empty());
    EXPECT_TRUE(cfg.accounts.empty());
    ASSERT_EQ(cfg.partitions.size(), 1u);
    EXPECT_TRUE(cfg.partitions[0].is_default);
    EXPECT_TRUE(cfg.partitions[0].nodes.empty());
    EXPECT_TRUE(cfg.partitions[0].max_time.is_infinite());
  }
}

// The opt-in policy of docs/policies.md: EASY ordered by expansion factor, size and age,
// with the 48-hour guard, on the same machine-from-the-trace as the plain policies.
TEST(ConfigExamples, ExpansionGuardPolicyParses) {
  auto r = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/sim/expansion-guard.toml");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  const Config& cfg = *r;
  EXPECT_EQ(cfg.scheduler.backfill, BackfillMode::kEasy);
  ASSERT_TRUE(cfg.scheduler.reserve_after_wait.has_value());
  EXPECT_EQ(*cfg.scheduler.reserve_after_wait, Duration::hours(48));
  EXPECT_EQ(cfg.priority.expansion_factor, 200.0);
  EXPECT_EQ(cfg.priority.size, 1000.0);
  EXPECT_EQ(cfg.priority.age_per_minute, 1.0);
  EXPECT_EQ(cfg.priority.fairshare, 0.0);
  EXPECT_TRUE(cfg.nodes.empty());
}

TEST(ConfigExamples, EasyPlusPlusPolicyParses) {
  auto r = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/sim/easy-plus-plus.toml");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->scheduler.backfill, BackfillMode::kEasy);
  EXPECT_EQ(r->scheduler.runtime_prediction, RuntimePrediction::kUserLast2);
  EXPECT_EQ(r->scheduler.backfill_order, BackfillOrder::kShortestFirst);
  EXPECT_EQ(r->priority.age_per_minute, 1.0);
  EXPECT_TRUE(r->nodes.empty());
}

// The complete example in the reference must stay valid as the schema evolves.
TEST(ConfigExamples, DocsExampleParses) {
  const std::string path = std::string(FAIRWAY_SOURCE_DIR) + "/docs/config.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::ostringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::string open = "## Complete example\n\n```toml\n";
  auto begin = doc.find(open);
  ASSERT_NE(begin, std::string::npos);
  begin += open.size();
  auto end = doc.find("```", begin);
  ASSERT_NE(end, std::string::npos);
  auto r = parse_config(std::string_view(doc).substr(begin, end - begin), "docs/config.md");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->cluster_name, "kebnekaise");
  EXPECT_EQ(r->nodes.size(), 44u);
  ASSERT_EQ(r->partitions.size(), 3u);
  EXPECT_EQ(r->default_partition()->name, "batch");
  EXPECT_EQ(r->partitions[1].nodes, (Names{"b-cn0301", "b-cn0302"}));
  EXPECT_EQ(r->partitions[2].nodes.size(), 44u);
  EXPECT_EQ(r->partitions[2].default_time, Duration::minutes(15));
  EXPECT_EQ(r->nodes[32].total_gpus(), 2);
}

}  // namespace
}  // namespace fairway
