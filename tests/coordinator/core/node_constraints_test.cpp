// sbatch -w, -x, -C and --exclusive in the core: jobs run only where they were allowed,
// impossible requests are refused at submit with what the nodes hold, and features match
// "a&b" and "a|b".
#include "coordinator/core/node_constraints.h"

#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

Config four_nodes() {
  Config c = testing::uniform_cluster(4, 1, 4, BackfillMode::kEasy);
  c.nodes[0].features = {"skylake", "ib"};
  c.nodes[1].features = {"skylake"};
  c.nodes[2].features = {"rome", "ib"};
  return c;
}

std::string node_of(const Scheduler& s, std::uint64_t id) {
  const JobRecord* j = s.job(JobId(id));
  if (j == nullptr || j->allocation.nodes.empty()) return "-";
  return s.cluster().node(j->allocation.nodes.front().node).topology.name;
}

TEST(FeaturesMatch, AndOrAndErrors) {
  const std::vector<std::string> f = {"skylake", "ib"};
  EXPECT_TRUE(features_match(f, "skylake").value());
  EXPECT_TRUE(features_match(f, "skylake&ib").value());
  EXPECT_FALSE(features_match(f, "skylake&gpu").value());
  EXPECT_TRUE(features_match(f, "rome|ib").value());
  EXPECT_FALSE(features_match(f, "rome|gpu").value());
  EXPECT_EQ(features_match(f, "a&b|c").error().message,
            "--constraint=a&b|c: '&' and '|' cannot be mixed (no brackets yet)");
  EXPECT_EQ(features_match(f, "a&&b").error().message,
            "--constraint=a&&b: bad feature \"\" (letters, digits, '_', '-' and '.')");
}

TEST(NodeConstraints, JobsRunOnlyWhereAllowed) {
  auto s = testing::make(four_nodes());
  JobSpec only = testing::job(1, 1, 600);
  only.only_nodes = {"n3"};
  JobSpec excl = testing::job(2, 4, 600);
  excl.excluded_nodes = {"n0", "n1", "n3"};
  JobSpec feat = testing::job(3, 1, 600);
  feat.constraint = "rome|skylake&ib";  // refused: mixed
  JobSpec feat_ok = testing::job(4, 1, 600);
  feat_ok.constraint = "skylake&ib";
  ASSERT_TRUE(s->submit(only, T(0)));
  ASSERT_TRUE(s->submit(excl, T(0)));
  EXPECT_FALSE(s->submit(feat, T(0)));
  ASSERT_TRUE(s->submit(feat_ok, T(0)));
  s->schedule(T(0));
  EXPECT_EQ(node_of(*s, 1), "n3");
  EXPECT_EQ(node_of(*s, 2), "n2");
  EXPECT_EQ(node_of(*s, 4), "n0");
  // n0 is free again only for it: a skylake&ib job waits while other nodes have room.
  JobSpec more = testing::job(5, 4, 600);
  more.constraint = "ib&skylake";
  ASSERT_TRUE(s->submit(more, T(1)));
  const PassResult r = s->schedule(T(1));
  EXPECT_TRUE(r.started.empty());
  EXPECT_EQ(s->job(JobId(5))->why.codes(), "Fragmented");  // free cores, not on its nodes
}

TEST(NodeConstraints, ImpossibleRequestsAreRefusedAtSubmit) {
  auto s = testing::make(four_nodes());
  JobSpec j = testing::job(1, 1, 600);
  j.only_nodes = {"n9"};
  EXPECT_EQ(s->submit(j, T(0)).error().message, "job 1: --nodelist: node 'n9' is not in partition 'batch'");
  j.only_nodes = {};
  j.constraint = "gpu";
  EXPECT_EQ(s->submit(j, T(0)).error().message,
            "job 1: no node of partition 'batch' is left by --constraint=gpu");
  j.constraint = "";
  j.only_nodes = {"n0", "n1"};
  j.resources.cores = 9;
  EXPECT_EQ(s->submit(j, T(0)).error().message,
            "job 1: requests 9 cores and 0 GPUs, more than the nodes its --nodelist/--exclude/--constraint "
            "leave can ever hold (8 cores, 0 GPUs on 2 nodes)");
}

TEST(NodeConstraints, ExclusiveTakesWholeNodes) {
  auto s = testing::make(four_nodes());
  JobSpec j = testing::job(1, 1, 600);
  j.exclusive = true;
  ASSERT_TRUE(s->submit(j, T(0)));
  EXPECT_EQ(s->job(JobId(1))->spec.resources.cores, 4);
  EXPECT_EQ(s->job(JobId(1))->spec.resources.nodes, 1);
  s->schedule(T(0));
  ASSERT_EQ(s->job(JobId(1))->allocation.nodes.size(), 1u);
  EXPECT_EQ(s->job(JobId(1))->allocation.nodes[0].cores.size(), 4u);
}

}  // namespace
}  // namespace fairway
