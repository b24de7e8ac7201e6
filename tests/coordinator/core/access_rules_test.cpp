// Partition and QOS access lists (issue 33 item 4): bob, outside alice's owner partition,
// can neither submit into it nor move his waiting job there; the pure check names the key.
#include "coordinator/core/access_rules.h"

#include <gtest/gtest.h>

#include "tests/coordinator/core/test_cluster.h"

namespace fairway {
namespace {

constexpr std::int64_t kHour = 3600;

Time T(std::int64_t s) {
  return Time::from_seconds(s);
}

AccessRequest who(std::string_view user, std::string_view account, std::string_view qos = {},
                  std::optional<std::uint32_t> uid = std::nullopt, std::span<const std::string> groups = {}) {
  return AccessRequest{user, account, qos, uid, groups};
}

// One node in two partitions: `work` for everyone (preemptable), `owner` for the alice-lab
// account, whose jobs preempt work's.
Config owner_cluster() {
  Config c;
  c.nodes = {NodeTopology::uniform("n1", 1, 8, 0, "")};
  PartitionConfig work;
  work.name = "work";
  work.is_default = true;
  work.preempt = PreemptMode::kRequeue;
  work.nodes = {"n1"};
  PartitionConfig owner;
  owner.name = "owner";
  owner.priority_tier = 1;
  owner.nodes = {"n1"};
  owner.access.allow_accounts = {"alice-lab"};
  c.partitions = {work, owner};
  return c;
}

JobSpec job_of(std::uint64_t id, const std::string& user, const std::string& account,
               const std::string& partition) {
  JobSpec j = testing::job(id, 8, kHour, 0, user);
  j.account = account;
  j.partition = partition;
  return j;
}

TEST(AccessRules, BobCannotSubmitIntoAlicesOwnerPartitionNorPreemptHerJob) {
  auto s = testing::make(owner_cluster());
  ASSERT_TRUE(s->submit(job_of(1, "alice", "alice-lab", "work"), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  auto refused = s->submit(job_of(2, "bob", "bob-lab", "owner"), T(60));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(refused.error().message,
            "job 2: Job's account not permitted to use this partition (partition 'owner' allow_accounts = "
            "alice-lab, not account 'bob-lab')");
  EXPECT_EQ(s->job(JobId(2)), nullptr);
  EXPECT_TRUE(s->schedule(T(60)).preempting.empty()) << "alice's job was preempted";
  // Her own lab's job is admitted, and does preempt.
  ASSERT_TRUE(s->submit(job_of(3, "carol", "alice-lab", "owner"), T(120)));
  EXPECT_EQ(s->schedule(T(120)).preempting.size(), 1u);
}

TEST(AccessRules, BobCannotMoveHisWaitingJobIntoTheOwnerPartitionNorChargeItThere) {
  auto s = testing::make(owner_cluster());
  JobSpec waiting = job_of(1, "bob", "bob-lab", "work");
  waiting.hold = true;
  ASSERT_TRUE(s->submit(waiting, T(0)));
  JobChanges move;
  move.partition = "owner";
  auto refused = s->update(JobId(1), move);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kPermissionDenied);
  EXPECT_NE(refused.error().message.find("allow_accounts = alice-lab, not account 'bob-lab'"),
            std::string::npos)
      << refused.error().message;
  EXPECT_EQ(s->job(JobId(1))->spec.partition, "work") << "a refused move leaves the job as it was";
  // A rename moves nothing and is not checked again.
  JobChanges rename;
  rename.name = "renamed";
  EXPECT_TRUE(s->update(JobId(1), rename));
}

TEST(AccessRules, DenyAccountsRefusesOnlyTheListedAccounts) {
  PartitionConfig p;
  p.name = "gpu";
  p.access.deny_accounts = {"guests"};
  EXPECT_TRUE(check_partition_access(p, who("a", "physics")));
  auto st = check_partition_access(p, who("a", "guests"));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message,
            "Job's account not permitted to use this partition (partition 'gpu' deny_accounts = guests, "
            "including account 'guests')");
}

TEST(AccessRules, AllowGroupsNeedsOneOfTheUsersGroupsAndRootPassesAsInSlurm) {
  PartitionConfig p;
  p.name = "condo";
  p.access.allow_groups = {"condo-owners", "staff"};
  const std::vector<std::string> bobs = {"bob", "users"};
  const std::vector<std::string> alices = {"alice", "condo-owners"};
  auto st = check_partition_access(p, who("bob", "x", {}, 1001, bobs));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message,
            "User's group not permitted to use this partition (partition 'condo' allow_groups = "
            "condo-owners,staff, and user 'bob' is in none)");
  EXPECT_TRUE(check_partition_access(p, who("alice", "x", {}, 1000, alices)));
  // slurm.conf(5): "Jobs executed as user root can use any partition without regard to
  // the value of AllowGroups". An unknown uid (a trace) is not root.
  EXPECT_TRUE(check_partition_access(p, who("root", "x", {}, 0)));
  EXPECT_FALSE(check_partition_access(p, who("root", "x")));
}

TEST(AccessRules, RootIsBoundByTheAccountAndQosListsAsInSlurm) {
  PartitionConfig p;
  p.name = "owner";
  p.access.allow_accounts = {"lab"};
  EXPECT_FALSE(check_partition_access(p, who("root", "root", {}, 0)));
}

TEST(AccessRules, PartitionQosListsAndQosAccountLists) {
  PartitionConfig p;
  p.name = "debug";
  p.access.allow_qos = {"debug"};
  EXPECT_TRUE(check_partition_access(p, who("a", "x", "debug")));
  auto none = check_partition_access(p, who("a", "x"));
  ASSERT_FALSE(none);
  EXPECT_EQ(
      none.error().message,
      "Job's QOS not permitted to use this partition (partition 'debug' allow_qos = debug, not QOS (none))");
  p.access.allow_qos.clear();
  p.access.deny_qos = {"long"};
  EXPECT_TRUE(check_partition_access(p, who("a", "x")));
  EXPECT_FALSE(check_partition_access(p, who("a", "x", "long")));

  QosConfig q;
  q.name = "high";
  q.access.allow_accounts = {"paying"};
  auto st = check_qos_access(q, who("a", "free"));
  ASSERT_FALSE(st);
  EXPECT_EQ(
      st.error().message,
      "Job's account not permitted to use this QOS (qos 'high' allow_accounts = paying, not account 'free')");
  EXPECT_TRUE(check_qos_access(q, who("a", "paying")));
}

TEST(AccessRules, TheSchedulerChecksAQosAccountListAtSubmissionAndOnAMove) {
  Config c = owner_cluster();
  QosConfig high;
  high.name = "high";
  high.access.allow_accounts = {"alice-lab"};
  c.qos = {high};
  auto s = testing::make(c);
  JobSpec j = job_of(1, "bob", "bob-lab", "work");
  j.qos = "high";
  EXPECT_FALSE(s->submit(j, T(0)));
  j.qos.clear();
  j.hold = true;
  ASSERT_TRUE(s->submit(j, T(0)));
  JobChanges up;
  up.qos = "high";
  EXPECT_FALSE(s->update(JobId(1), up));
  EXPECT_TRUE(s->job(JobId(1))->spec.qos.empty());
}

TEST(AccessRules, TheSchedulerPassesTheSubmittersGroupsToAllowGroups) {
  Config c = owner_cluster();
  c.partitions[1].access = {};
  c.partitions[1].access.allow_groups = {"condo"};
  auto s = testing::make(c);
  JobSpec j = job_of(1, "bob", "bob-lab", "owner");
  j.uid = 1001;
  const std::vector<std::string> bobs = {"users"};
  EXPECT_FALSE(s->submit(j, T(0), bobs));
  const std::vector<std::string> members = {"users", "condo"};
  EXPECT_TRUE(s->submit(j, T(0), members));
}

}  // namespace
}  // namespace fairway
