// Partitions' and QOS's access keys (issue 33 item 4): what parses, the lists that exclude
// each other as in Slurm, and what each bad value is told. The shipped Palmetto 2 profile
// closes its owner partitions to everyone but their owners.
#include <gtest/gtest.h>

#include <string>

#include "config_test_util.h"
#include "shared/config/config.h"
#include "shared/config/config_file.h"

namespace fairway {
namespace {

using config_test::kNode;
using config_test::parse_error;
using config_test::parse_ok;

std::string owner(const std::string& keys) {
  return std::string(kNode) + "[[partitions]]\nname = \"owner\"\n" + keys;
}

TEST(ConfigAccess, PartitionListsAndQosAccountLists) {
  Config c = parse_ok(
      owner("allow_accounts = [\"lab\", \"lab2\"]\nallow_groups = [\"condo\"]\ndeny_qos = [\"long\"]\n") +
      "[[qos]]\nname = \"high\"\ndeny_accounts = [\"guests\"]\n");
  const AccessRules& a = c.partitions[0].access;
  EXPECT_EQ(a.allow_accounts, (std::vector<std::string>{"lab", "lab2"}));
  EXPECT_EQ(a.allow_groups, std::vector<std::string>{"condo"});
  EXPECT_EQ(a.deny_qos, std::vector<std::string>{"long"});
  EXPECT_TRUE(a.deny_accounts.empty() && a.allow_qos.empty());
  EXPECT_EQ(c.qos[0].access.deny_accounts, std::vector<std::string>{"guests"});
  EXPECT_TRUE(parse_ok(owner("")).partitions[0].access.allow_accounts.empty());
}

TEST(ConfigAccess, AllowAndDenyExcludeEachOtherAndEmptyListsAreRefused) {
  EXPECT_CONTAINS(parse_error(owner("allow_accounts = [\"a\"]\ndeny_accounts = [\"b\"]\n")),
                  "partitions[0].deny_accounts: set together with allow_accounts (as in Slurm, a list either "
                  "allows or denies, not both)");
  EXPECT_CONTAINS(parse_error(owner("allow_qos = [\"a\"]\ndeny_qos = [\"b\"]\n")),
                  "partitions[0].deny_qos: set together with allow_qos");
  EXPECT_CONTAINS(parse_error(owner("allow_groups = []\n")),
                  "partitions[0].allow_groups: empty list (leave the key out to impose nothing)");
  EXPECT_CONTAINS(parse_error(owner("allow_accounts = [\"\"]\n")),
                  "partitions[0].allow_accounts[0]: empty name");
  EXPECT_CONTAINS(parse_error(owner("allow_accounts = \"lab\"\n")), "partitions[0].allow_accounts");
  // A QOS takes the account lists only.
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[qos]]\nname = \"q\"\nallow_groups = [\"g\"]\n"),
                  "allow_groups");
}

TEST(ConfigAccess, PalmettosOwnerPartitionsAdmitOnlyTheirOwners) {
  auto c = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/profiles/palmetto2.toml");
  ASSERT_TRUE(c) << c.error().message;
  int owners = 0;
  for (const PartitionConfig& p : c->partitions) {
    if (p.priority_tier == 0) continue;
    ++owners;
    EXPECT_FALSE(p.access.allow_accounts.empty() && p.access.allow_groups.empty())
        << "owner partition '" << p.name << "' is open to everyone";
  }
  EXPECT_EQ(owners, 2);
}

}  // namespace
}  // namespace fairway
