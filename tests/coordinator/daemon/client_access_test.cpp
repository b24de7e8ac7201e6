// Who may act on what in the client API, without a service: ownership by uid (by name for
// jobs stored before uids were kept), steps for the owner or root only, a declared
// account for its users (any for an admin), and a submission's spec from its caller.
#include <gtest/gtest.h>

#include "coordinator/daemon/client_access.h"
#include "coordinator/daemon/submit_checks.h"

namespace fairway::daemon {
namespace {

const Caller kAlice{1001, 100, "alice", false};
const Caller kOps{1003, 100, "ops", true};
const Caller kRoot{0, 0, "root", true};

AccountConfig account(std::string name, std::vector<std::string> users) {
  AccountConfig a;
  a.name = std::move(name);
  a.users = std::move(users);
  return a;
}

JobSpec alices_job() {
  JobSpec spec;
  spec.user = "alice";
  spec.uid = 1001;
  return spec;
}

TEST(ClientAccess, AJobIsItsUidsAndAnOldOneItsUsersByName) {
  EXPECT_TRUE(owns(kAlice, alices_job()));
  JobSpec renamed = alices_job();
  renamed.user = "bob";  // the uid decides, not the name
  EXPECT_TRUE(owns(kAlice, renamed));
  JobSpec other = alices_job();
  other.uid = 1002;
  EXPECT_FALSE(owns(kAlice, other));
  JobSpec old = alices_job();
  old.uid.reset();
  EXPECT_TRUE(owns(kAlice, old));
  old.user = "bob";
  EXPECT_FALSE(owns(kAlice, old));
}

TEST(ClientAccess, StepsRunForTheOwnerOrRootButNotAnotherAdmin) {
  EXPECT_TRUE(may_run_steps(kAlice, alices_job()));
  EXPECT_TRUE(may_run_steps(kRoot, alices_job()));
  EXPECT_FALSE(may_run_steps(kOps, alices_job()));
}

TEST(ClientAccess, ADeclaredAccountTakesItsUsersAndAdmins) {
  Config config;
  EXPECT_TRUE(check_account(config, "anything", "alice", kAlice)) << "no accounts declared: any name";
  config.accounts.push_back(account("physics", {"carol"}));
  config.accounts.push_back(account("open", {}));
  auto not_member = check_account(config, "physics", "alice", kAlice);
  ASSERT_FALSE(not_member);
  EXPECT_EQ(not_member.error().code, ErrorCode::kPermissionDenied);
  EXPECT_NE(not_member.error().message.find("'alice' is not one of its users"), std::string::npos);
  EXPECT_TRUE(check_account(config, "physics", "alice", kOps));
  EXPECT_TRUE(check_account(config, "open", "alice", kAlice)) << "an account listing no users takes anyone";
  auto unknown = check_account(config, "chem", "alice", kAlice);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(unknown.error().message.find("(accounts: physics, open)"), std::string::npos);
}

TEST(SubmitChecks, TheSpecIsTheCallersWhateverTheRequestSays) {
  Config config;
  config.accounts.push_back(account("physics", {"alice"}));
  wire::SubmitRequest m;
  m.spec.user = "mallory";
  m.spec.uid = 0;
  m.spec.array_job = JobId(9);
  m.spec.array_task = 3;
  m.program.argv = {"/bin/true"};
  const JobSpec spec = submission_spec(config, m, kAlice, Time::from_seconds(50));
  EXPECT_EQ(spec.user, "alice");
  EXPECT_EQ(spec.uid, 1001u);
  EXPECT_EQ(spec.gid, 100u);
  EXPECT_EQ(spec.submit_time, Time::from_seconds(50));
  EXPECT_EQ(spec.array_job, JobId());
  EXPECT_EQ(spec.array_task, 0);
  EXPECT_EQ(spec.account, "physics");
  EXPECT_EQ(spec.name, "wrap");
  EXPECT_EQ(default_account(config, "bob"), "default");
  EXPECT_FALSE(check_named_user(m, kAlice));
  m.spec.user = "alice";
  EXPECT_TRUE(check_named_user(m, kAlice));
}

}  // namespace
}  // namespace fairway::daemon
