// ArrayBook on its own: an array's unmade tasks, a task split out of it, and the array
// ending with its last task, as --dependency and the per-user counts see it.
#include "coordinator/core/array_book.h"

#include <gtest/gtest.h>

#include <utility>

#include "test_cluster.h"

namespace fairway {
namespace {

// Array 10 with tasks 0-3 (ids 11-14), waiting.
ArrayBook book_with_array(bool held = false) {
  JobRecord prototype;
  prototype.spec = testing::job(10, 1, 60);
  prototype.spec.array = *parse_array_spec("0-3", 100);
  prototype.spec.hold = held;
  ArrayBook book;
  book.add(std::move(prototype));
  return book;
}

TEST(ArrayBook, AnArrayCountsAllItsTasksAndItsUnmadeTasksAreItsOwn) {
  ArrayBook book = book_with_array();
  JobSpec again = testing::job(20, 1, 60);
  again.array = *parse_array_spec("0-3", 100);
  EXPECT_EQ(*book.jobs_added_by(again, 100), 4);
  EXPECT_FALSE(book.jobs_added_by(again, 3));  // index 3 is over max_array_size - 1
  EXPECT_EQ(std::as_const(book).holding(JobId(13))->id(), JobId(10));
  EXPECT_EQ(std::as_const(book).holding(JobId(15)), nullptr);
  EXPECT_EQ(book.state_of(JobId(10)), JobState::kPending);
  EXPECT_EQ(book.state_of(JobId(12)), JobState::kPending);
  // A restored task takes its place back: it adds no open job and is no longer unmade.
  JobSpec task = testing::job(12, 1, 60);
  task.array_job = JobId(10);
  EXPECT_EQ(*book.jobs_added_by(task, 100), 0);
  book.claim(JobId(12));
  EXPECT_EQ(book.unmade_holder(JobId(12)), nullptr);
  EXPECT_EQ(book.state_of(JobId(12)), std::nullopt);
}

TEST(ArrayBook, ASplitTaskOfAHeldArrayIsMadeHeldAndOnlyOnce) {
  ArrayBook book = book_with_array(true);
  auto split = book.split(JobId(10), 2);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->id, JobId(13));
  ASSERT_TRUE(split->made.has_value());
  EXPECT_EQ(split->made->state, JobState::kHeld);
  EXPECT_EQ(split->made->spec.array_task, 2);
  auto again = book.split(JobId(10), 2);
  ASSERT_TRUE(again.has_value());
  EXPECT_FALSE(again->made.has_value());
  EXPECT_FALSE(book.split(JobId(10), 7).has_value());
}

TEST(ArrayBook, TheArrayEndsWithItsLastTaskAndSaysHow) {
  ArrayBook book = book_with_array();
  EndedJobs ended;
  auto split = book.split(JobId(10), 0);
  ASSERT_TRUE(split.has_value() && split->made.has_value());
  book.cancel(JobId(10), ended);  // the three unmade tasks end; the made one still runs
  EXPECT_TRUE(book.contains(JobId(10)));
  EXPECT_TRUE(book.take_ended().empty());
  JobRecord task = *split->made;
  task.state = JobState::kCancelled;
  book.task_ended(task, ended);
  EXPECT_FALSE(book.contains(JobId(10)));
  const std::vector<ArrayJob> done = book.take_ended();
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].outcome(), JobState::kCancelled);
  EXPECT_EQ(ended.outcome(JobId(10)), EndedJobs::Outcome::kFailed);
}

}  // namespace
}  // namespace fairway
