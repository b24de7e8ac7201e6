#include "client/views/slurm/association_view.h"

#include <gtest/gtest.h>

#include "client/slurm/slurm_commands.h"

namespace fairway::cli {
namespace {

wire::SharesReply two_accounts() {
  wire::SharesReply r;
  r.rows = {{"physics", "", 60, 0.6, 0, 0, 0},
            {"physics", "alice", 1, 0.3, 0, 0, 0.5},
            {"physics", "bob", 1, 0.3, 0, 0, 0.5},
            {"chem", "", 40, 0.4, 0, 0, 0},
            {"chem", "alice", 1, 0.4, 0, 0, 0.5}};
  return r;
}

std::string render(const AssociationLayout& layout) {
  auto text = render_associations(two_accounts(), layout);
  EXPECT_TRUE(text) << text.error().message;
  return text ? *text : "";
}

// Snakemake checks an account with `sacctmgr -n -s list user USER format=account%20`
// and splits what it prints on blanks.
TEST(AssociationView, AUsersAccountsAsSnakemakeAsksForThem) {
  auto t = translate_slurm_command("sacctmgr", {"-n", "-s", "list", "user", "alice", "format=account%20"},
                                   {"alice", {}});
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_TRUE(t->call && std::holds_alternative<SlurmSharesCall>(*t->call));
  const SharesOptions& o = std::get<SlurmSharesCall>(*t->call).options;
  EXPECT_EQ(o.list, "user-associations");
  EXPECT_EQ(o.user, "alice");
  EXPECT_EQ(o.format, "account%20");
  EXPECT_TRUE(o.noheader && !o.parsable);
  wire::SharesReply alice = two_accounts();
  std::erase_if(alice.rows, [](const wire::ShareView& v) { return !v.user.empty() && v.user != "alice"; });
  auto text = render_associations(alice, {AssociationList::kUserAssociations, "account%20", false, false});
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "             physics \n                chem \n");  // each field ends in a blank
}

TEST(AssociationView, ListsUsersAccountsAndAssociations) {
  EXPECT_EQ(render({AssociationList::kAccounts, "", true, true}), "Account\nphysics\nchem\n");
  EXPECT_EQ(render({AssociationList::kUsers, "", true, false}), "alice|physics|None\nbob|physics|None\n");
  EXPECT_EQ(render({AssociationList::kAssociations, "Account,User", true, false}),
            "physics|\nphysics|alice\nphysics|bob\nchem|\nchem|alice\n");
  // As sacctmgr 22.05 prints it: a cut title plainly, a cut value with '+'.
  EXPECT_EQ(render({AssociationList::kAccounts, "Account%5", false, true}),
            "Accou \n----- \nphys+ \n chem \n");
  // list assoc user=alice: alice's associations, not her accounts' own rows.
  AssociationLayout mine{AssociationList::kAssociations, "Account,User", true, false, true};
  EXPECT_EQ(render(mine), "physics|alice\nphysics|bob\nchem|alice\n");
  EXPECT_FALSE(
      render_associations(two_accounts(), {AssociationList::kUsers, "User,Coordinators", false, true}));
  EXPECT_FALSE(parse_association_list("qos"));
  EXPECT_FALSE(translate_slurm_command("sacctmgr", {"add", "user", "carol"}, {"alice", {}}));
}

}  // namespace
}  // namespace fairway::cli
