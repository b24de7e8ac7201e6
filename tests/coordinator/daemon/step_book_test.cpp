// A job's steps as the coordinator books them: numbers never reused (not by a refused
// exclusive step, a requeue or a restart), an end as its srun says it, the steps left open
// when the job stops CANCELLED by SIGKILL, and exclusive cores held until their step ends.
#include <gtest/gtest.h>

#include <csignal>

#include "coordinator/daemon/step_book.h"

namespace fairway::daemon {
namespace {

StoredStep row(const char* name, Time start) {
  StoredStep s;
  s.job = JobId(7);
  s.name = name;
  s.ntasks = 2;
  s.nodes = 1;
  s.start_time = start;
  return s;
}

std::vector<StepCores::Need> two_of(std::vector<std::int32_t> job_cores) {
  return {{"n1", std::move(job_cores), 2}};
}

TEST(StepBook, StepsAreNumberedFromZeroAndEachOpenStepIsKept) {
  StepBook book;
  EXPECT_EQ(book.next_number(), 0);
  const StoredStep& first = book.open(row("hostname", Time::from_seconds(10)));
  EXPECT_EQ(first.step, 0);
  EXPECT_EQ(first.state, JobState::kRunning);
  EXPECT_EQ(book.open(row("a.out", Time::from_seconds(11))).step, 1);
  EXPECT_EQ(book.next_number(), 2);
  ASSERT_EQ(book.open_steps().size(), 2u);
  EXPECT_EQ(book.open_steps().at(1).name, "a.out");
}

TEST(StepBook, AStepEndsAsItsSrunSays) {
  StepBook book;
  for (int i = 0; i < 3; ++i) book.open(row("x", Time::from_seconds(100)));
  auto signalled = book.end(wire::StepEnded{JobId(7), 0, 0, SIGTERM, 2048, 500}, Time::from_seconds(110));
  ASSERT_TRUE(signalled);
  EXPECT_EQ(signalled->state, JobState::kCancelled);
  EXPECT_EQ(signalled->signal, SIGTERM);
  EXPECT_EQ(signalled->end_time, Time::from_seconds(110));
  EXPECT_EQ(signalled->max_rss_kb, 2048);
  EXPECT_EQ(signalled->cpu_us, 500);
  auto failed = book.end(wire::StepEnded{JobId(7), 1, 3, 0}, Time::from_seconds(120));
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->state, JobState::kFailed);
  EXPECT_EQ(failed->exit_code, 3);
  // A clock that stepped back never ends a step before it started.
  auto completed = book.end(wire::StepEnded{JobId(7), 2, 0, 0}, Time::from_seconds(90));
  ASSERT_TRUE(completed);
  EXPECT_EQ(completed->state, JobState::kCompleted);
  EXPECT_EQ(completed->end_time, Time::from_seconds(100));
  EXPECT_TRUE(book.open_steps().empty());
}

TEST(StepBook, AStepThatIsNotOpenCannotEnd) {
  StepBook book;
  book.open(row("x", Time::from_seconds(1)));
  EXPECT_FALSE(book.end(wire::StepEnded{JobId(7), 5, 0, 0}, Time::from_seconds(2)));
  ASSERT_TRUE(book.end(wire::StepEnded{JobId(7), 0, 0, 0}, Time::from_seconds(2)));
  // Ended once: a second report of it finds nothing.
  EXPECT_FALSE(book.end(wire::StepEnded{JobId(7), 0, 0, 0}, Time::from_seconds(3)));
}

TEST(StepBook, StepsLeftOpenWhenTheJobStopsWereKilledAndNumbersGoOn) {
  StepBook book;
  book.open(row("a", Time::from_seconds(10)));
  book.open(row("b", Time::from_seconds(20)));
  const auto ended = book.end_all(Time::from_seconds(15));
  ASSERT_EQ(ended.size(), 2u);
  for (const StoredStep& s : ended) {
    EXPECT_EQ(s.state, JobState::kCancelled);
    EXPECT_EQ(s.signal, SIGKILL);
    EXPECT_EQ(s.exit_code, 0);
  }
  EXPECT_EQ(ended[0].end_time, Time::from_seconds(15));
  EXPECT_EQ(ended[1].end_time, Time::from_seconds(20));
  EXPECT_TRUE(book.open_steps().empty());
  // The requeued job's next run numbers on from where the last stopped.
  EXPECT_EQ(book.open(row("c", Time::from_seconds(30))).step, 2);
}

TEST(StepBook, ExclusiveStepsHoldTheirCoresUntilTheyEndAndARefusalUsesNoNumber) {
  StepBook book;
  auto first = book.take_cores(two_of({0, 1, 2}));
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)[0], (std::vector<std::int32_t>{0, 1}));
  book.open(row("a", Time::from_seconds(1)));
  // One core left of three: the next exclusive step waits, and its number stays free.
  EXPECT_FALSE(book.take_cores(two_of({0, 1, 2})));
  EXPECT_EQ(book.next_number(), 1);
  ASSERT_TRUE(book.end(wire::StepEnded{JobId(7), 0, 0, 0}, Time::from_seconds(2)));
  auto second = book.take_cores(two_of({0, 1, 2}));
  ASSERT_TRUE(second);
  EXPECT_EQ((*second)[0], (std::vector<std::int32_t>{0, 1}));
  book.open(row("b", Time::from_seconds(3)));
  // The job stopping frees every core.
  (void)book.end_all(Time::from_seconds(4));
  EXPECT_TRUE(book.take_cores(two_of({0, 1, 2})));
}

TEST(StepBook, ARestoredBookEndsTheStepsTheStoreHeldOpenAndNumbersOn) {
  StepBook book;
  StoredStep open = row("srun", Time::from_seconds(5));
  open.step = 4;
  book.restore_open(open);
  book.restore_next(6);
  ASSERT_EQ(book.open_steps().size(), 1u);
  auto ended = book.end(wire::StepEnded{JobId(7), 4, 0, 0}, Time::from_seconds(9));
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->name, "srun");
  EXPECT_EQ(book.open(row("next", Time::from_seconds(10))).step, 6);
}

}  // namespace
}  // namespace fairway::daemon
