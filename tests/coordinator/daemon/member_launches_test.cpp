// member_launches: a multi-node job's nodes besides its head get extern-only launches that
// hold exactly their share of the allocation and run nothing of the job's.
#include "coordinator/daemon/member_launches.h"

#include <gtest/gtest.h>

#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

class MemberLaunches : public ::testing::Test {
 protected:
  MemberLaunches() {
    for (const char* n : {"n1", "n2", "n3"})
      (void)cluster_.add_node(NodeTopology::uniform(n, 2, 4, 1, "a100"));
  }
  static wire::LaunchJob head_launch() {
    wire::LaunchJob l;
    l.job = JobId(42);
    l.user = "alice";
    l.program.argv = {"/home/alice/job.sh"};
    l.cores = {0, 1};
    l.gpus = {0};
    l.memory_limit_bytes = 4LL << 30;
    l.warn_signal = 10;
    l.warn_before_s = 60;
    l.warn_batch_only = true;
    return l;
  }
  static std::vector<wire::LaunchJob> launches(const std::vector<Outgoing>& out) {
    std::vector<wire::LaunchJob> got;
    for (const Outgoing& o : out) {
      auto m = wire::decode(o.frame);
      EXPECT_TRUE(m && std::holds_alternative<wire::LaunchJob>(*m));
      if (m && std::holds_alternative<wire::LaunchJob>(*m)) got.push_back(std::get<wire::LaunchJob>(*m));
    }
    return got;
  }
  ClusterState cluster_;
};

TEST_F(MemberLaunches, AOneNodeJobHasNone) {
  JobRecord rec;
  rec.allocation.nodes = {{NodeIndex(0), {0, 1}, {0}, 4096}};
  EXPECT_TRUE(member_launches(cluster_, rec, head_launch()).empty());
}

TEST_F(MemberLaunches, EachOtherNodeHoldsItsShareAndRunsNothingOfTheJobs) {
  JobRecord rec;
  rec.allocation.nodes = {
      {NodeIndex(0), {0, 1}, {0}, 4096}, {NodeIndex(2), {4, 5, 6}, {1}, 2048}, {NodeIndex(1), {3}, {}, 0}};
  const std::vector<Outgoing> out = member_launches(cluster_, rec, head_launch());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].channel, Channel::kAgents);
  EXPECT_EQ(out[0].peer, "n3");
  EXPECT_EQ(out[1].peer, "n2");
  EXPECT_TRUE(out[0].route.empty()) << "addressed by the channel when the turn ends";
  const auto l = launches(out);
  ASSERT_EQ(l.size(), 2u);
  for (const wire::LaunchJob& m : l) {
    EXPECT_EQ(m.job, JobId(42));
    EXPECT_EQ(m.user, "alice");
    EXPECT_TRUE(m.extern_only);
    EXPECT_TRUE(m.program.argv.empty()) << "the agent runs its own holder";
    EXPECT_EQ(m.warn_signal, 0) << "--signal is for the job's script, not the holder";
    EXPECT_EQ(m.warn_before_s, 0);
    EXPECT_FALSE(m.warn_batch_only);
  }
  EXPECT_EQ(l[0].cores, (std::vector<std::int32_t>{4, 5, 6}));
  EXPECT_EQ(l[0].gpus, (std::vector<std::int32_t>{1}));
  EXPECT_EQ(l[0].memory_limit_bytes, std::optional<std::int64_t>(2048LL << 20));
  EXPECT_EQ(l[1].cores, (std::vector<std::int32_t>{3}));
  EXPECT_TRUE(l[1].gpus.empty());
  EXPECT_FALSE(l[1].memory_limit_bytes) << "no memory held there: no limit";
}

}  // namespace
}  // namespace fairway::daemon
