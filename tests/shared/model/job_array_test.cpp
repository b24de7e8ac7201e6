#include "shared/model/job_array.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

ArraySpec parse(std::string_view text) {
  auto r = parse_array_spec(text, 100000);
  EXPECT_TRUE(r) << text << ": " << (r ? "" : r.error().message);
  return r ? *r : ArraySpec{};
}

TEST(ArraySpecTest, ParsesRangesStepsSinglesAndLimit) {
  const ArraySpec a = parse("1-100,200,300-400:2%10");
  EXPECT_EQ(a.count(), 100 + 1 + 51);
  EXPECT_EQ(a.max_running, 10);
  EXPECT_EQ(a.min_index(), 1);
  EXPECT_EQ(a.max_index(), 400);
  EXPECT_EQ(format_array_spec(a), "1-100,200,300-400:2%10");
  EXPECT_EQ(a.index_at(0), 1);
  EXPECT_EQ(a.index_at(99), 100);
  EXPECT_EQ(a.index_at(100), 200);
  EXPECT_EQ(a.index_at(101), 300);
  EXPECT_EQ(a.index_at(151), 400);
  EXPECT_EQ(a.position_of(200), 100);
  EXPECT_EQ(a.position_of(302), 102);
  EXPECT_EQ(a.position_of(301), std::nullopt);
  EXPECT_EQ(a.position_of(0), std::nullopt);
}

TEST(ArraySpecTest, NormalizesOrderAndDuplicates) {
  const ArraySpec a = parse("7,1-3,2,5");
  EXPECT_EQ(format_array_spec(a), "1-3,5,7");
  EXPECT_EQ(a.count(), 5);
  EXPECT_EQ(a.step(), 1);
  EXPECT_EQ(parse("0-9:3").step(), 3);
  EXPECT_EQ(format_array_spec(parse("4")), "4");
  // Two indices a step apart are listed, not a range.
  EXPECT_EQ(format_array_spec(parse("1-3:2")), "1,3");
  // Ranges in order are kept as given (a task's start decodes its array's text again).
  EXPECT_EQ(parse("0-99999").ranges, (std::vector<ArrayIndexRange>{{0, 99999, 1}}));
  EXPECT_EQ(parse("0-9:4,20").ranges, (std::vector<ArrayIndexRange>{{0, 8, 4}, {20, 20, 1}}));
  EXPECT_EQ(format_array_spec(parse("0-9:4,20")), "0-8:4,20");
}

TEST(ArraySpecTest, RefusesMalformedTextNamingThePiece) {
  const auto bad = [](std::string_view text, std::string_view names) {
    auto r = parse_array_spec(text, 1000);
    ASSERT_FALSE(r) << text;
    EXPECT_NE(r.error().message.find(names), std::string::npos) << r.error().message;
  };
  bad("", "no task indices");
  bad("%4", "no task indices");
  bad("5-1", "'5-1' ends before it starts");
  bad("1-x", "'x'");
  bad("1,,2", "''");
  bad("-3", "''");
  bad("1-10%0", "'%0'");
  bad("1-10%", "'%'");
  bad("1-10:0", "step '0'");
  bad("3:2", "step but no range");
  bad("1-1001", "index 1001 is over the largest allowed, 1000");
}

TEST(ArraySpecTest, FoldsIndexListsAsSqueue) {
  const std::vector<std::int32_t> v{1, 2, 3, 7, 9, 11, 13};
  EXPECT_EQ(format_index_list(v), "1-3,7-13:2");
  const std::vector<std::int32_t> w{1, 2, 3, 7, 20, 22, 24};
  EXPECT_EQ(format_index_list(w), "1-3,7,20-24:2");
  EXPECT_EQ(format_index_list(std::vector<std::int32_t>{}), "");
}

TEST(TaskPositionsTest, TakesAndErasesKeepingIntervalsCompact) {
  TaskPositions p(100000);
  EXPECT_EQ(p.size(), 100000);
  EXPECT_EQ(p.intervals().size(), 1U);
  EXPECT_EQ(p.take_front(), 0);
  EXPECT_EQ(p.take_front(), 1);
  EXPECT_TRUE(p.erase(500));
  EXPECT_FALSE(p.erase(500));
  EXPECT_FALSE(p.erase(0));
  EXPECT_FALSE(p.contains(500));
  EXPECT_TRUE(p.contains(501));
  EXPECT_TRUE(p.contains(2));
  EXPECT_FALSE(p.contains(100000));
  EXPECT_EQ(p.intervals().size(), 2U);
  EXPECT_EQ(p.size(), 99997);
  EXPECT_TRUE(p.erase(99999));
  EXPECT_TRUE(p.erase(2));
  EXPECT_EQ(p.take_front(), 3);
  EXPECT_EQ(p.size(), 99994);
  TaskPositions one(1);
  EXPECT_EQ(one.take_front(), 0);
  EXPECT_TRUE(one.empty());
  TaskPositions none(0);
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace fairway
