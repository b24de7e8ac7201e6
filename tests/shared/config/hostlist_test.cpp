#include "shared/config/hostlist.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <vector>

namespace fairway {
namespace {

using Names = std::vector<std::string>;

Names expand(std::string_view list) {
  auto r = expand_hostlist(list);
  EXPECT_TRUE(r.has_value()) << "'" << list << "': " << r.error().message;
  return r ? *r : Names{};
}

// Expects an error whose message quotes `needle` (the offending part of the list).
void expect_error(std::string_view list, std::string_view needle) {
  auto r = expand_hostlist(list);
  ASSERT_FALSE(r.has_value()) << "'" << list << "' expanded to " << r->size() << " hosts";
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(r.error().message.find(needle), std::string::npos)
      << "message '" << r.error().message << "' does not mention '" << needle << "'";
}

TEST(Hostlist, ExpandsTheDocumentedExample) {
  EXPECT_EQ(expand("cn[01-04,07],gpu1,big[1-2]"),
            (Names{"cn01", "cn02", "cn03", "cn04", "cn07", "gpu1", "big1", "big2"}));
}

TEST(Hostlist, PlainNames) {
  EXPECT_EQ(expand("gpu1"), Names{"gpu1"});
  EXPECT_EQ(expand("a,b,c"), (Names{"a", "b", "c"}));
  EXPECT_EQ(expand("node-1.cluster"), Names{"node-1.cluster"});
  EXPECT_EQ(expand(" a , b "), (Names{"a", "b"}));  // spaces around items are tolerated
}

TEST(Hostlist, KeepsZeroPaddingOfRangeBounds) {
  EXPECT_EQ(expand("b-cn[0101-0103]"), (Names{"b-cn0101", "b-cn0102", "b-cn0103"}));
  EXPECT_EQ(expand("n[08-11]"), (Names{"n08", "n09", "n10", "n11"}));
  EXPECT_EQ(expand("n[8-11]"), (Names{"n8", "n9", "n10", "n11"}));
  EXPECT_EQ(expand("n[098-101]"), (Names{"n098", "n099", "n100", "n101"}));
  EXPECT_EQ(expand("n[007]"), Names{"n007"});
}

TEST(Hostlist, SuffixesAndSeveralBracketSets) {
  EXPECT_EQ(expand("cn[1-2]-ib"), (Names{"cn1-ib", "cn2-ib"}));
  EXPECT_EQ(expand("r[1-2]n[1-2]"), (Names{"r1n1", "r1n2", "r2n1", "r2n2"}));
  EXPECT_EQ(expand("[1-3]"), (Names{"1", "2", "3"}));
}

TEST(Hostlist, SingleElementRangesAndOrder) {
  EXPECT_EQ(expand("cn[5-5]"), Names{"cn5"});
  EXPECT_EQ(expand("cn[3,1,2]"), (Names{"cn3", "cn1", "cn2"}));    // order as written
  EXPECT_EQ(expand("cn[1-2],cn1"), (Names{"cn1", "cn2", "cn1"}));  // callers reject dups
}

TEST(Hostlist, LargeButAllowedList) {
  auto names = expand("n[000001-100000]");
  ASSERT_EQ(names.size(), 100000u);
  EXPECT_EQ(names.front(), "n000001");
  EXPECT_EQ(names.back(), "n100000");
}

TEST(Hostlist, UnbalancedBrackets) {
  expect_error("cn[1-4", "cn[1-4");
  expect_error("cn[1-4", "unbalanced '['");
  expect_error("cn1-4]", "unbalanced ']'");
  expect_error("cn[1-[2]]", "nested '['");
  expect_error("a,cn]1[", "a,cn]1[");
}

TEST(Hostlist, ReversedRange) {
  expect_error("cn[5-3]", "reversed range '5-3'");
  expect_error("ok1,cn[01-04,09-07]", "reversed range '09-07'");
}

TEST(Hostlist, NonNumericRange) {
  expect_error("cn[a-c]", "non-numeric range 'a'");
  expect_error("cn[1-x]", "non-numeric range 'x'");
  expect_error("cn[1.5]", "non-numeric range '1.5'");
  expect_error("cn[-3]", "non-numeric range ''");
  expect_error("cn[1-2-3]", "non-numeric range '2-3'");
  expect_error("cn[1234567890]", "non-numeric range '1234567890'");  // too many digits
}

TEST(Hostlist, EmptyNames) {
  expect_error("", "empty host list");
  expect_error("   ", "empty host list");
  expect_error("a,,b", "empty host name");
  expect_error("a,", "empty host name");
  expect_error(",a", "empty host name");
  expect_error("cn[]", "empty range '[]'");
  expect_error("cn[1,,2]", "empty range in 'cn[1,,2]'");
}

TEST(Hostlist, InvalidCharacters) {
  expect_error("cn 1", "invalid character in host name 'cn 1'");
}

TEST(Hostlist, TooManyHosts) {
  expect_error("n[0-100000]", "more than 100000 hosts");
  expect_error("n[1-999999999]", "more than 100000 hosts");
  expect_error("r[1-1000]n[1-1000]", "more than 100000 hosts");
  expect_error("a[1-60000],b[1-60000]", "more than 100000 hosts");
}

}  // namespace
}  // namespace fairway

namespace fairway {
namespace {

TEST(CompressHostlist, FoldsNumberedNamesAsSlurmPrintsThem) {
  EXPECT_EQ(compress_hostlist({}), "");
  EXPECT_EQ(compress_hostlist({"vm"}), "vm");
  EXPECT_EQ(compress_hostlist({"cn01"}), "cn01");
  EXPECT_EQ(compress_hostlist({"cn03", "cn01", "cn02", "cn07"}), "cn[01-03,07]");
  EXPECT_EQ(compress_hostlist({"a1", "gpu2", "a2", "login"}), "a[1-2],gpu2,login");
  // Another width is another group: cn9 and cn10 are not "cn[9-10]" with one padding.
  EXPECT_EQ(compress_hostlist({"cn9", "cn10", "cn11"}), "cn9,cn[10-11]");
  for (const std::vector<std::string>& hosts :
       {std::vector<std::string>{"n001", "n002", "n010"}, std::vector<std::string>{"x", "y7", "y8"}}) {
    auto back = expand_hostlist(compress_hostlist(hosts));
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, hosts);
  }
}

// Slurm 22.05 on twonode.sh lists its nodes vm1 and vm (configured in that order) as
// "vm,vm1" and makes vm the batch host of a two-node job.
TEST(HostlistOrder, IsSlurmsNameThenNumberOrder) {
  EXPECT_TRUE(hostlist_less("vm", "vm1"));
  EXPECT_FALSE(hostlist_less("vm1", "vm"));
  EXPECT_TRUE(hostlist_less("n2", "n10"));
  EXPECT_TRUE(hostlist_less("a10", "b1"));
  EXPECT_FALSE(hostlist_less("n3", "n3"));
  std::vector<std::string> names{"gpu2", "cn10", "vm1", "cn9", "vm", "cn"};
  std::sort(names.begin(), names.end(),
            [](const std::string& a, const std::string& b) { return hostlist_less(a, b); });
  EXPECT_EQ(names, (std::vector<std::string>{"cn", "cn9", "cn10", "gpu2", "vm", "vm1"}));
}

}  // namespace
}  // namespace fairway
