#include "coordinator/core/availability_profile.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

namespace fairway {
namespace {

Time T(std::int64_t s) {
  return Time::from_seconds(s);
}
Duration D(std::int64_t s) {
  return Duration::seconds(s);
}

TEST(AvailabilityProfile, ReleasesAddFromTheirTime) {
  AvailabilityProfile p;
  std::vector<ResourceRelease> rel = {{T(200), {3, 0}}, {T(100), {2, 1}}, {T(100), {1, 0}}};
  p.reset(T(0), {4, 0}, rel);
  EXPECT_EQ(p.free_at(T(0)), (ResourceAmount{4, 0}));
  EXPECT_EQ(p.free_at(T(99)), (ResourceAmount{4, 0}));
  EXPECT_EQ(p.free_at(T(100)), (ResourceAmount{7, 1}));
  EXPECT_EQ(p.free_at(T(250)), (ResourceAmount{10, 1}));
  EXPECT_EQ(p.breakpoints(), 3u);
}

TEST(AvailabilityProfile, EarliestStartWaitsForEnoughAndLongEnough) {
  AvailabilityProfile p;
  std::vector<ResourceRelease> rel = {{T(100), {6, 0}}};
  p.reset(T(0), {4, 0}, rel);
  EXPECT_EQ(p.earliest_start({4, 0}, D(500), T(0)), T(0));
  EXPECT_EQ(p.earliest_start({5, 0}, D(500), T(0)), T(100));
  EXPECT_EQ(p.earliest_start({11, 0}, D(1), T(0)), Time::never());
  p.reserve(T(100), D(50), {8, 0});  // leaves 2 free during [100, 150)
  EXPECT_EQ(p.free_at(T(120)), (ResourceAmount{2, 0}));
  EXPECT_EQ(p.earliest_start({3, 0}, D(101), T(0)), T(150));  // [0,100) is 1 s too short
  EXPECT_EQ(p.earliest_start({3, 0}, D(100), T(0)), T(0));    // end is exclusive
  EXPECT_EQ(p.earliest_start({3, 0}, D(101), T(120)), T(150));
  EXPECT_TRUE(p.fits(T(0), D(100), {2, 0}));
  EXPECT_FALSE(p.fits(T(0), D(101), {3, 0}));
}

TEST(AvailabilityProfile, GpusAreADimensionOfTheirOwn) {
  AvailabilityProfile p;
  std::vector<ResourceRelease> rel = {{T(50), {0, 2}}};
  p.reset(T(0), {28, 0}, rel);
  EXPECT_EQ(p.earliest_start({4, 1}, D(10), T(0)), T(50));
  EXPECT_FALSE(p.fits(T(0), D(10), {4, 1}));
}

TEST(AvailabilityProfile, MemoryIsADimensionOfItsOwn) {
  AvailabilityProfile p;
  std::vector<ResourceRelease> rel = {{T(50), {0, 0, 4000}}, {T(80), {2, 0, 0}}};
  p.reset(T(0), {8, 0, 2000}, rel);
  EXPECT_EQ(p.earliest_start({1, 0, 3000}, D(10), T(0)), T(50)) << "cores were free, memory was not";
  EXPECT_TRUE(p.fits(T(0), D(10), {8, 0, 2000}));
  p.reserve(T(60), D(100), {1, 0, 5000});
  EXPECT_EQ(p.free_at(T(100)), (ResourceAmount{9, 0, 1000}));
  EXPECT_EQ(p.earliest_start({1, 0, 2000}, D(10), T(0)), T(0));
  EXPECT_EQ(p.earliest_start({1, 0, 2000}, D(100), T(0)), T(160)) << "the reservation holds 5000 until 160";
}

TEST(AvailabilityProfile, NextChangeAfter) {
  AvailabilityProfile p;
  std::vector<ResourceRelease> rel = {{T(10), {1, 0}}, {T(30), {1, 0}}};
  p.reset(T(0), {0, 0}, rel);
  EXPECT_EQ(p.next_change_after(T(0)), T(10));
  EXPECT_EQ(p.next_change_after(T(10)), T(30));
  EXPECT_EQ(p.next_change_after(T(30)), Time::never());
}

// The blocked representation must agree with a plain map of breakpoints on every query,
// through many block splits.
TEST(AvailabilityProfile, MatchesBruteForceModelUnderRandomReservations) {
  std::mt19937 rng(12345);
  const std::int64_t capacity = 64;
  for (int round = 0; round < 5; ++round) {
    std::vector<ResourceRelease> rel;
    std::int64_t running = 0;
    for (int i = 0; i < 300; ++i) {
      const std::int64_t c = 1 + static_cast<std::int64_t>(rng() % 3);
      if (running + c > capacity) break;
      running += c;
      rel.push_back({T(1 + static_cast<std::int64_t>(rng() % 5000)), {c, 0}});
    }
    AvailabilityProfile p;
    p.reset(T(0), {capacity - running, 0}, rel);
    // Model: free at every second in [0, horizon).
    const std::int64_t horizon = 40000;
    std::vector<std::int64_t> model(horizon, capacity - running);
    for (const auto& r : rel) {
      for (std::int64_t t = r.at.seconds(); t < horizon; ++t)
        model[static_cast<std::size_t>(t)] += r.amount.cores;
    }
    auto model_earliest = [&](std::int64_t need, std::int64_t dur, std::int64_t from) -> std::int64_t {
      std::int64_t run = 0;
      for (std::int64_t t = from; t < horizon; ++t) {
        run = model[static_cast<std::size_t>(t)] >= need ? run + 1 : 0;
        if (run == dur) return t - dur + 1;
      }
      return -1;
    };
    for (int q = 0; q < 200; ++q) {
      const std::int64_t need = 1 + static_cast<std::int64_t>(rng() % (capacity / 2));
      const std::int64_t dur = 1 + static_cast<std::int64_t>(rng() % 3000);
      const std::int64_t from = static_cast<std::int64_t>(rng() % 4000);
      const Time got = p.earliest_start({need, 0}, D(dur), T(from));
      const std::int64_t want = model_earliest(need, dur, from);
      if (want == -1) {  // beyond the model's horizon: the profile must say so too
        ASSERT_GT(got.seconds() + dur, horizon - 1) << "round " << round << " query " << q;
        continue;
      }
      ASSERT_EQ(got, T(want)) << "round " << round << " query " << q;
      EXPECT_EQ(p.free_at(T(from)).cores, model[static_cast<std::size_t>(from)]);
      if (got.seconds() + dur + 1 < horizon) {
        p.reserve(got, D(dur), {need, 0});
        for (std::int64_t t = want; t < want + dur; ++t) model[static_cast<std::size_t>(t)] -= need;
      }
    }
  }
}

// Cores and memory together, against a per-second model: every query and reservation
// checks both columns, across block splits.
TEST(AvailabilityProfile, MatchesBruteForceModelWithMemory) {
  std::mt19937 rng(777);
  const std::int64_t cores = 64, memory = 64000;
  std::vector<ResourceRelease> rel;
  ResourceAmount running;
  for (int i = 0; i < 300; ++i) {
    const ResourceAmount a{1 + static_cast<std::int64_t>(rng() % 3), 0,
                           100 * static_cast<std::int64_t>(rng() % 30)};
    if (running.cores + a.cores > cores || running.memory_mb + a.memory_mb > memory) break;
    running += a;
    rel.push_back({T(1 + static_cast<std::int64_t>(rng() % 5000)), a});
  }
  AvailabilityProfile p;
  p.reset(T(0), ResourceAmount{cores, 0, memory} - running, rel);
  const std::int64_t horizon = 30000;
  std::vector<ResourceAmount> model(horizon, ResourceAmount{cores, 0, memory} - running);
  for (const auto& r : rel) {
    for (std::int64_t t = r.at.seconds(); t < horizon; ++t) model[static_cast<std::size_t>(t)] += r.amount;
  }
  for (int q = 0; q < 300; ++q) {
    const ResourceAmount need{1 + static_cast<std::int64_t>(rng() % 16), 0,
                              500 * static_cast<std::int64_t>(rng() % 24)};
    const std::int64_t dur = 1 + static_cast<std::int64_t>(rng() % 2000);
    const std::int64_t from = static_cast<std::int64_t>(rng() % 4000);
    std::int64_t want = -1;
    for (std::int64_t t = from, run = 0; t < horizon; ++t) {
      run = model[static_cast<std::size_t>(t)].covers(need) ? run + 1 : 0;
      if (run == dur) {
        want = t - dur + 1;
        break;
      }
    }
    const Time got = p.earliest_start(need, D(dur), T(from));
    if (want == -1) {
      ASSERT_GT(got.seconds() + dur, horizon - 1) << "query " << q;
      continue;
    }
    ASSERT_EQ(got, T(want)) << "query " << q;
    ASSERT_EQ(p.free_at(T(from)), model[static_cast<std::size_t>(from)]) << "query " << q;
    if (want + dur + 1 < horizon) {
      p.reserve(got, D(dur), need);
      for (std::int64_t t = want; t < want + dur; ++t) model[static_cast<std::size_t>(t)] -= need;
    }
  }
}

}  // namespace
}  // namespace fairway
