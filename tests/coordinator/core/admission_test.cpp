// admission::admit and admission::restore on their own: the decision comes back and nothing
// the view borrows changes; a stored job skips the checks it passed once.
#include "coordinator/core/admission.h"

#include <gtest/gtest.h>

#include <unordered_map>

#include "test_cluster.h"

namespace fairway {
namespace {

using testing::job;

// What admission reads, built as a Scheduler builds its own: two 8-core nodes, one
// partition "batch" (default, 1 h default time).
struct Fixture {
  Config config;
  ClusterState cluster;
  MaintenanceSchedule maintenance;
  ProjectReservations reservations;
  ArrayBook arrays;
  OpenJobCounts open_jobs;
  std::unordered_map<std::uint64_t, JobRecord> jobs;
  EndedJobs ended;
  LiveJobState live = [](JobId) { return std::optional<JobState>(); };

  explicit Fixture(std::optional<std::int32_t> max_open = std::nullopt) {
    config = testing::uniform_cluster(2, 1, 8, BackfillMode::kEasy);
    PartitionConfig batch;
    batch.name = "batch";
    batch.is_default = true;
    config.partitions.push_back(batch);
    config.limits.max_submitted_jobs_per_user = max_open;
    for (const auto& n : config.nodes) cluster.add_node(n);
    EXPECT_TRUE(cluster.add_partition("batch", {"n0", "n1"}, batch.placement).has_value());
    maintenance = MaintenanceSchedule(config);
    reservations = ProjectReservations(config);
  }
  MaxPsLimit maxps() const { return MaxPsLimit(config.limits, config.accounts); }
};

TEST(Admission, AdmitReturnsTheSpecAsItWillRunAndChangesNothing) {
  Fixture f;
  const MaxPsLimit maxps = f.maxps();
  const AdmissionView view{f.config, f.cluster,   maxps,  f.maintenance, f.reservations,
                           f.arrays, f.open_jobs, f.jobs, f.live,        f.ended};
  JobSpec spec = job(1, 4, 0);  // no partition, no time limit
  auto d = admission::admit(spec, view, testing::T(0), std::nullopt);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->spec.partition, "batch");
  EXPECT_EQ(d->spec.time_limit, Duration::hours(1));  // the partition's default_time
  EXPECT_EQ(d->open_jobs_added, 1);
  // Admission decides; the scheduler counts and queues: the counts and jobs are untouched.
  EXPECT_EQ(f.open_jobs.of_user("alice"), 0);
  EXPECT_TRUE(f.jobs.empty());
}

TEST(Admission, AUserAtTheLimitIsRefusedButHerStoredJobComesBack) {
  Fixture f(1);
  f.open_jobs.add(job(1, 1, 60), 1);  // alice has one open job already
  const MaxPsLimit maxps = f.maxps();
  const AdmissionView view{f.config, f.cluster,   maxps,  f.maintenance, f.reservations,
                           f.arrays, f.open_jobs, f.jobs, f.live,        f.ended};
  auto refused = admission::admit(job(2, 1, 60), view, testing::T(0), std::nullopt);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("max_submitted_jobs_per_user = 1"), std::string::npos)
      << refused.error().message;
  auto restored = admission::restore(job(2, 1, 60), view);
  ASSERT_TRUE(restored) << restored.error().message;
  EXPECT_EQ(restored->open_jobs_added, 1);
}

TEST(Admission, TooLargeForThePartitionIsRefusedButAStoredOneComesBackAsStored) {
  Fixture f;
  const MaxPsLimit maxps = f.maxps();
  const AdmissionView view{f.config, f.cluster,   maxps,  f.maintenance, f.reservations,
                           f.arrays, f.open_jobs, f.jobs, f.live,        f.ended};
  auto refused = admission::admit(job(1, 64, 0), view, testing::T(0), std::nullopt);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kResourceExhausted);
  EXPECT_NE(refused.error().message.find("can ever hold (16 cores"), std::string::npos)
      << refused.error().message;
  // Its nodes may not have registered yet after a restart; its stored limit (none) stays.
  auto restored = admission::restore(job(1, 64, 0), view);
  ASSERT_TRUE(restored) << restored.error().message;
  EXPECT_EQ(restored->spec.time_limit, Duration());
}

TEST(Admission, BothPathsRefuseWhatNoJobCanBe) {
  Fixture f;
  const MaxPsLimit maxps = f.maxps();
  const AdmissionView view{f.config, f.cluster,   maxps,  f.maintenance, f.reservations,
                           f.arrays, f.open_jobs, f.jobs, f.live,        f.ended};
  JobSpec nowhere = job(1, 1, 60);
  nowhere.partition = "nope";
  for (const auto& r :
       {admission::admit(nowhere, view, testing::T(0), std::nullopt), admission::restore(nowhere, view)}) {
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "job 1: partition 'nope' does not exist");
  }
  for (const auto& r : {admission::admit(job(2, 0, 60), view, testing::T(0), std::nullopt),
                        admission::restore(job(2, 0, 60), view)}) {
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "job 2: cores must be >= 1, got 0");
  }
}

}  // namespace
}  // namespace fairway
