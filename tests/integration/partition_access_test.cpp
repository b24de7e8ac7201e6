// Partitions' access lists on the real coordinator (issue 33 item 4): nobody, outside the
// owners' account or group, can neither submit into an owner partition nor move a job
// there with `update job`; the owners can. Also scontrol update (the Slurm front-end).
#include <grp.h>
#include <pwd.h>

#include <algorithm>

#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class PartitionAccess : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "needs root to act as other users";
  }
  void start(const std::string& owner_rule) {
    write_config(
        "[[partitions]]\nname = \"work\"\ndefault = true\npreempt = \"requeue\"\n"
        "[[partitions]]\nname = \"owner\"\npriority_tier = 1\n" +
        owner_rule);
    start_coordinator();
    start_agent("kb01", kebnekaise_xml());
    ASSERT_TRUE(wait_nodes_up(1));
  }
};

TEST_F(PartitionAccess, AnotherAccountCannotSubmitIntoOrMoveAJobIntoAnOwnerPartition) {
  start("allow_accounts = [\"alice-lab\"]\n");
  std::string out;
  EXPECT_EQ(run_cli_as("nobody", {"submit", "-D", "/tmp", "-p", "owner", "--hold", "--wrap", "true"}, out), 1)
      << out;
  EXPECT_TRUE(contains(out,
                       "Job's account not permitted to use this partition (partition 'owner' "
                       "allow_accounts = alice-lab, not account '"))
      << out;
  // Charging the owners' account instead is refused too: nobody is not one of its users
  // where accounts are declared; here, with none declared, the rule is what stops it.
  ASSERT_EQ(run_cli_as("nobody", {"submit", "-D", "/tmp", "--parsable", "--hold", "--wrap", "true"}, out), 0)
      << out;
  const std::string id = out.substr(0, out.find_first_of("\n;"));
  EXPECT_EQ(run_cli_as("nobody", {"update", "job", id, "Partition=owner"}, out), 1) << out;
  EXPECT_TRUE(contains(out, "not permitted to use this partition")) << out;
  auto v = job(JobId(std::stoull(id)));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->partition, "work") << "the refused move left the job where it was";
  // The owners' account is admitted.
  auto r = wrap("true");
  r.spec.hold = true;
  r.spec.partition = "owner";
  r.spec.account = "alice-lab";
  EXPECT_TRUE(submit(r));
}

TEST_F(PartitionAccess, AllowGroupsAdmitsMembersOfTheGroupTheDaemonResolves) {
  // nobody's primary group owns the partition; a system user of another primary group,
  // and not in that one, is outside it.
  // (getpwnam and getgrgid share static storage: copy what is needed at once.)
  const passwd* nobody = getpwnam("nobody");
  ASSERT_NE(nobody, nullptr);
  const gid_t owners_gid = nobody->pw_gid;
  const group* g = getgrgid(owners_gid);
  ASSERT_NE(g, nullptr);
  const std::string owners = g->gr_name;
  std::vector<std::string> members;
  for (char** m = g->gr_mem; m != nullptr && *m != nullptr; ++m) members.emplace_back(*m);
  std::string outsider;
  for (const char* name : {"bin", "sys", "daemon", "games", "man", "mail", "news"}) {
    const passwd* pw = getpwnam(name);
    if (pw == nullptr || pw->pw_gid == owners_gid) continue;
    const bool member = std::find(members.begin(), members.end(), name) != members.end();
    if (!member) {
      outsider = name;
      break;
    }
  }
  if (outsider.empty()) GTEST_SKIP() << "no system user outside group " << owners;
  start("allow_groups = [\"" + owners + "\"]\n");
  std::string out;
  EXPECT_EQ(run_cli_as(outsider, {"submit", "-D", "/tmp", "-p", "owner", "--hold", "--wrap", "true"}, out), 1)
      << out;
  EXPECT_TRUE(contains(
      out, "User's group not permitted to use this partition (partition 'owner' allow_groups = " + owners +
               ", and user '" + outsider + "' is in none)"))
      << out;
  EXPECT_EQ(run_cli_as("nobody", {"submit", "-D", "/tmp", "-p", "owner", "--hold", "--wrap", "true"}, out), 0)
      << out;
}

}  // namespace
}  // namespace fairway::integration
