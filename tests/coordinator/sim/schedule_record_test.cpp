#include "coordinator/sim/schedule_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fairway::sim {
namespace {

std::vector<NodeTopology> two_nodes() {
  return {NodeTopology::uniform("n0", 2, 4), NodeTopology::uniform("n1", 2, 4, 1, "a100")};
}

ScheduleRecord sample() {
  ScheduleRecord r;
  r.id = JobId(17);
  r.submit = Time::from_seconds(10);
  r.start = Time::from_seconds(25);
  r.end = Time::from_seconds(125);
  r.state = JobState::kCompleted;
  r.allocation = CompactAllocation(Allocation{{{NodeIndex(1), {0, 3}, {1}}, {NodeIndex(0), {5}, {}}}});
  return r;
}

TEST(ScheduleRecordJson, ExactLine) {
  EXPECT_EQ(schedule_record_json(sample(), two_nodes()),
            R"({"id":17,"submit":10,"start":25,"end":125,"state":"completed",)"
            R"("allocation":[{"node":"n1","cores":[0,3],"gpus":[1]},)"
            R"({"node":"n0","cores":[5],"gpus":[]}],"preempted":false})");
}

TEST(ScheduleRecordJson, ReservationFieldsOnlyWhenPresent) {
  ScheduleRecord r = sample();
  r.preempted = true;
  r.state = JobState::kRequeued;
  r.reserved_start = Time::from_seconds(20);
  r.reserved_at = Time::from_seconds(12);
  const std::string line = schedule_record_json(r, two_nodes());
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["state"], "requeued");
  EXPECT_EQ(j["preempted"], true);
  EXPECT_EQ(j["reserved_start"], 20);
  EXPECT_EQ(j["reserved_at"], 12);
  EXPECT_EQ(line.find('\n'), std::string::npos);

  r.reserved_at.reset();
  const auto k = nlohmann::json::parse(schedule_record_json(r, two_nodes()));
  EXPECT_TRUE(k.contains("reserved_start"));
  EXPECT_FALSE(k.contains("reserved_at"));
  r.reserved_start.reset();
  EXPECT_FALSE(nlohmann::json::parse(schedule_record_json(r, two_nodes())).contains("reserved_start"));
}

TEST(ScheduleRecordJson, EmptyAllocationAndLargeValues) {
  ScheduleRecord r;
  r.id = JobId(18446744073709551615ull);
  r.submit = Time::from_seconds(0);
  r.start = Time::from_seconds(4'000'000'000'000);
  r.end = Time::from_seconds(4'000'000'000'000);
  const auto j = nlohmann::json::parse(schedule_record_json(r, {}));
  EXPECT_EQ(j["id"].get<std::uint64_t>(), 18446744073709551615ull);
  EXPECT_EQ(j["start"].get<std::int64_t>(), 4'000'000'000'000);
  EXPECT_TRUE(j["allocation"].is_array());
  EXPECT_TRUE(j["allocation"].empty());
}

TEST(ScheduleRecordJson, EscapesNodeNames) {
  const std::string odd = "we\"ird\\name\n\t\x01\x1f/\xc3\xa9";
  std::vector<NodeTopology> nodes = {NodeTopology::uniform(odd, 1, 2)};
  ScheduleRecord r = sample();
  r.allocation = CompactAllocation(Allocation{{{NodeIndex(0), {1}, {}}}});
  const std::string line = schedule_record_json(r, nodes);
  EXPECT_NE(line.find(R"("we\"ird\\name\n\t\u0001\u001f/)"), std::string::npos) << line;
  const auto j = nlohmann::json::parse(line);  // throws (fails the test) if not valid JSON
  EXPECT_EQ(j["allocation"][0]["node"], odd);
}

TEST(ScheduleRecordJson, OutOfRangeNodeStillValidJson) {
  ScheduleRecord r = sample();
  r.allocation = CompactAllocation(Allocation{{{NodeIndex(9), {0}, {}}}});
  const auto j = nlohmann::json::parse(schedule_record_json(r, two_nodes()));
  EXPECT_EQ(j["allocation"][0]["node"], "#9");
}

TEST(ScheduleRecordJson, RoundTripsEveryState) {
  for (int s = 0; s <= static_cast<int>(kLastJobState); ++s) {
    ScheduleRecord r = sample();
    r.state = static_cast<JobState>(s);
    const auto j = nlohmann::json::parse(schedule_record_json(r, two_nodes()));
    EXPECT_EQ(job_state_from_string(j["state"].get<std::string>()), r.state);
  }
}

}  // namespace
}  // namespace fairway::sim
