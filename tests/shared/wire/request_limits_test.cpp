// Each list of a client request is bounded by what means something for it (issue 33,
// item 8): one entry more is refused while decoding, with the field and the count; the
// bound itself still decodes.
#include "shared/wire/request_limits.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "shared/wire/codec.h"

namespace fairway::wire {
namespace {

// Decodes `make(n)` for n = bound and bound + 1: the first decodes, the second is refused
// naming `field` and the count.
void expect_bounded(std::size_t bound, const std::string& field,
                    const std::function<Message(std::size_t)>& make) {
  const auto fits = decode(encode(make(bound)));
  EXPECT_TRUE(fits) << field << ": " << fits.error().message;
  const auto over = decode(encode(make(bound + 1)));
  ASSERT_FALSE(over) << field;
  EXPECT_NE(over.error().message.find(field + ": has " + std::to_string(bound + 1) + " entries; at most " +
                                      std::to_string(bound) + " are accepted"),
            std::string::npos)
      << over.error().message;
}

std::vector<JobId> ids(std::size_t n) {
  std::vector<JobId> out;
  for (std::size_t i = 0; i < n; ++i) out.emplace_back(i + 1);
  return out;
}

std::vector<std::string> names(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back("n" + std::to_string(i));
  return out;
}

TEST(RequestLimitsTest, AStateFilterHoldsEachStateOnce) {
  EXPECT_EQ(kMaxStatesPerFilter, 13u);
  expect_bounded(kMaxStatesPerFilter, "states", [](std::size_t n) {
    JobQuery q;
    q.states.assign(n, JobState::kRunning);
    return Message{q};
  });
}

TEST(RequestLimitsTest, AMillionEntryStateFilterIsRefused) {
  JobQuery q;
  q.states.assign(1'000'000, JobState::kPending);
  const auto d = decode(encode(q));
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("states: has 1000000 entries; at most 13 are accepted"), std::string::npos)
      << d.error().message;
}

TEST(RequestLimitsTest, IdListsAreBounded) {
  expect_bounded(kMaxIdsPerRequest, "jobs", [](std::size_t n) {
    JobQuery q;
    q.jobs = ids(n);
    return Message{q};
  });
  expect_bounded(kMaxIdsPerRequest, "jobs", [](std::size_t n) {
    return Message{JobControl{JobAction::kCancel, ids(n), ""}};
  });
  expect_bounded(kMaxIdsPerRequest, "task_arrays", [](std::size_t n) {
    JobControl c{JobAction::kCancel, {}, ""};
    c.task_arrays = ids(n);
    c.task_indices.assign(n, 1);
    return Message{c};
  });
  expect_bounded(kMaxIdsPerRequest, "jobs", [](std::size_t n) {
    JobUpdate u;
    u.jobs = ids(n);
    return Message{u};
  });
}

TEST(RequestLimitsTest, NameListsAreBounded) {
  expect_bounded(kMaxNamesPerRequest, "nodes", [](std::size_t n) { return Message{NodeQuery{names(n)}}; });
  expect_bounded(kMaxNamesPerRequest, "nodes", [](std::size_t n) {
    return Message{NodeControl{NodeAction::kDrain, names(n), "why", ""}};
  });
  expect_bounded(kMaxNamesPerRequest, "partitions",
                 [](std::size_t n) { return Message{PartitionQuery{names(n)}}; });
  expect_bounded(kMaxNamesPerRequest, "names",
                 [](std::size_t n) { return Message{ReservationQuery{names(n)}}; });
  expect_bounded(kMaxNamesPerRequest, "excluded_nodes", [](std::size_t n) {
    SubmitRequest s;
    s.program.argv = {"true"};
    s.spec.excluded_nodes = names(n);
    return Message{s};
  });
}

TEST(RequestLimitsTest, ABatchIsBounded) {
  SubmitRequest one;
  one.program.argv = {"true"};
  expect_bounded(kMaxSubmitsPerBatch, "requests", [&](std::size_t n) {
    SubmitBatch b;
    b.requests.assign(n, one);
    return Message{b};
  });
}

}  // namespace
}  // namespace fairway::wire
