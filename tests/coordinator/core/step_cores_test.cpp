// srun --exclusive/--exact steps inside a job: each takes cores no other such step holds,
// and one that finds too few free waits (nothing taken), as on Slurm 22.05's twonode.sh:
// four 1-core steps ran at once in a 4-core job, the fifth waited for one to end.
#include "coordinator/core/step_cores.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

using Cores = std::vector<std::int32_t>;

TEST(StepCores, EachStepTakesFreeCoresAndTheNextWaitsUntilOneEnds) {
  StepCores held;
  const Cores job{4, 5, 6, 7};
  for (std::int32_t step = 0; step < 4; ++step) {
    auto got = held.take(step, {{"n1", job, 1}});
    ASSERT_TRUE(got) << "step " << step;
    EXPECT_EQ(*got, std::vector<Cores>{{job[static_cast<std::size_t>(step)]}});
  }
  EXPECT_FALSE(held.take(4, {{"n1", job, 1}})) << "every core is held";
  held.release(2);
  auto fifth = held.take(4, {{"n1", job, 1}});
  ASSERT_TRUE(fifth);
  EXPECT_EQ(*fifth, std::vector<Cores>{{6}});
}

TEST(StepCores, AStepOnSeveralNodesTakesAllOrNothing) {
  StepCores held;
  ASSERT_TRUE(held.take(0, {{"n2", {0, 1}, 2}}));
  // n1 has room, n2 has none: nothing is taken on n1 either.
  EXPECT_FALSE(held.take(1, {{"n1", {0, 1}, 1}, {"n2", {0, 1}, 1}}));
  EXPECT_TRUE(held.held_on("n1").empty());
  held.release(0);
  auto both = held.take(1, {{"n1", {0, 1}, 2}, {"n2", {0, 1}, 1}});
  ASSERT_TRUE(both);
  EXPECT_EQ(*both, (std::vector<Cores>{{0, 1}, {0}}));
  EXPECT_EQ(held.held_on("n2"), Cores{0});
}

}  // namespace
}  // namespace fairway
