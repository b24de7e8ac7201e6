#include "coordinator/sim/schedule_validator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fairway::sim {
namespace {

Time t(std::int64_t s) {
  return Time::from_seconds(s);
}

WorkloadJob make_job(std::uint64_t id, std::int64_t submit, ResourceRequest req, std::int64_t runtime,
                     std::int64_t limit) {
  WorkloadJob j;
  j.spec.id = JobId(id);
  j.spec.user = "u";
  j.spec.submit_time = t(submit);
  j.spec.resources = std::move(req);
  j.spec.time_limit = Duration::seconds(limit);
  j.runtime = Duration::seconds(runtime);
  j.line = static_cast<std::int64_t>(id);
  return j;
}

ScheduleRecord make_record(std::uint64_t id, std::int64_t submit, std::int64_t start, std::int64_t end,
                           std::vector<NodeAllocation> alloc) {
  ScheduleRecord r;
  r.id = JobId(id);
  r.submit = t(submit);
  r.start = t(start);
  r.end = t(end);
  r.allocation = CompactAllocation(Allocation{std::move(alloc)});
  return r;
}

NodeAllocation on(std::uint32_t node, std::vector<std::int32_t> cores, std::vector<std::int32_t> gpus = {}) {
  return NodeAllocation{NodeIndex(node), std::move(cores), std::move(gpus)};
}

// n0: 4 cores; n1: 4 cores + 2 a100; n2: 4 cores + 1 v100.
class ValidatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    nodes_ = {NodeTopology::uniform("n0", 1, 4), NodeTopology::uniform("n1", 2, 2, 1, "a100"),
              NodeTopology::uniform("n2", 1, 4, 1, "v100")};
    wl_.jobs = {
        make_job(1, 0, {0, 4, 0, ""}, 100, 100),
        make_job(2, 0, {0, 2, 1, "a100"}, 50, 60),
        make_job(3, 10, {2, 2, 0, ""}, 30, 30),
        make_job(4, 5, {0, 1, 0, ""}, 0, 10),    // runs for no time at all
        make_job(5, 0, {0, 64, 0, ""}, 10, 10),  // too big: rejected at submission
    };
    recs_ = {
        make_record(1, 0, 0, 100, {on(0, {0, 1, 2, 3})}), make_record(2, 0, 0, 50, {on(1, {0, 1}, {0})}),
        make_record(3, 10, 50, 80, {on(1, {0, 1}), on(2, {2, 3})}),  // back to back with 2
        make_record(4, 5, 5, 5, {on(0, {0})}),                       // zero length: may share job 1's core
    };
    rejected_ = {JobId(5)};
  }

  Status validate(bool reservations = false) {
    ValidationInput in;
    in.nodes = &nodes_;
    in.workload = &wl_;
    in.records = &recs_;
    in.rejected = rejected_;
    in.check_reservations = reservations;
    return validate_schedule(in);
  }

  // Fails the test unless validation fails with a message holding every fragment.
  void expect_violation(const std::vector<std::string>& fragments, bool reservations = false) {
    const Status st = validate(reservations);
    ASSERT_FALSE(st.has_value()) << "expected a violation mentioning " << fragments.front();
    for (const auto& f : fragments) {
      EXPECT_NE(st.error().message.find(f), std::string::npos)
          << "missing '" << f << "' in: " << st.error().message;
    }
  }

  std::vector<NodeTopology> nodes_;
  Workload wl_;
  std::vector<ScheduleRecord> recs_;
  std::vector<JobId> rejected_;
};

TEST_F(ValidatorTest, ValidSchedulePasses) {
  const Status st = validate(true);
  EXPECT_TRUE(st.has_value()) << st.error().message;
}

TEST_F(ValidatorTest, MissingInputIsAnError) {
  ValidationInput in;
  EXPECT_FALSE(validate_schedule(in).has_value());
}

// ---------------------------------------------------------------- (a) identity

TEST_F(ValidatorTest, MissingRecord) {
  recs_.erase(recs_.begin() + 2);
  expect_violation({"job 3 (line 3) has no record"});
}

TEST_F(ValidatorTest, HeldJobMayHaveNoRecord) {
  wl_.jobs[2].spec.hold = true;
  recs_.erase(recs_.begin() + 2);
  const Status st = validate();
  EXPECT_TRUE(st.has_value()) << st.error().message;
}

TEST_F(ValidatorTest, TwoRecordsForOneJob) {
  recs_.push_back(make_record(1, 0, 100, 200, {on(0, {0, 1, 2, 3})}));
  expect_violation({"job 1 has two records", "[0, 100)", "[100, 200)"});
}

TEST_F(ValidatorTest, RecordForUnknownJob) {
  recs_.push_back(make_record(99, 0, 0, 1, {on(0, {0})}));
  expect_violation({"job 99 is not in the workload"});
}

TEST_F(ValidatorTest, RecordForRejectedJob) {
  recs_.push_back(make_record(5, 0, 100, 110, {on(0, {0})}));
  expect_violation({"job 5 was rejected at submission"});
}

TEST_F(ValidatorTest, RejectedJobNotInWorkload) {
  rejected_.push_back(JobId(77));
  expect_violation({"job 77", "not in the workload"});
}

TEST_F(ValidatorTest, SubmitTimeDiffers) {
  recs_[2].submit = t(11);
  expect_violation({"job 3", "submit 11", "workload submit 10"});
}

// ---------------------------------------------------------------- (b) times

TEST_F(ValidatorTest, StartBeforeSubmit) {
  wl_.jobs[2].spec.submit_time = t(60);
  recs_[2].submit = t(60);
  expect_violation({"job 3 started at 50, before its submit 60"});
}

TEST_F(ValidatorTest, WrongDurationForCompletedJob) {
  recs_[1].end = t(49);
  expect_violation({"job 2 completed after running 49 s", "[0, 49)", "runtime is 50 s"});
}

TEST_F(ValidatorTest, EndBeforeStart) {
  recs_[3].end = t(4);
  expect_violation({"job 4 ends at 4, before its start 5"});
}

TEST_F(ValidatorTest, CutShortJobMayRunLessButNeverMore) {
  recs_[0].state = JobState::kPreempted;
  recs_[0].end = t(40);
  EXPECT_TRUE(validate().has_value());
  recs_[0].end = t(140);
  expect_violation({"job 1 (preempted) ran 140 s"});
}

// ---------------------------------------------------------------- (c) allocation shape

TEST_F(ValidatorTest, WrongCoreCount) {
  recs_[0].allocation = CompactAllocation(Allocation{{on(0, {0, 1, 2})}});
  expect_violation({"job 1 was given 3 cores but requested 4"});
}

TEST_F(ValidatorTest, WrongGpuCount) {
  recs_[1].allocation = CompactAllocation(Allocation{{on(1, {0, 1})}});
  expect_violation({"job 2 was given 0 GPUs but requested 1"});
}

TEST_F(ValidatorTest, WrongNodeCountForNodeRequest) {
  recs_[2].allocation = CompactAllocation(Allocation{{on(1, {0, 1, 2, 3})}});
  expect_violation({"job 3 requested 2 nodes but was given 1"});
}

TEST_F(ValidatorTest, UnevenCoresForNodeRequest) {
  recs_[2].allocation = CompactAllocation(Allocation{{on(1, {0, 1, 2}), on(2, {3})}});
  expect_violation({"job 3 got 3 cores and 0 GPUs on node n1", "2 cores and 0 GPUs per node"});
}

TEST_F(ValidatorTest, NodeIndexOutOfRange) {
  recs_[0].allocation = CompactAllocation(Allocation{{on(7, {0, 1, 2, 3})}});
  expect_violation({"job 1 was given node index 7", "has 3 nodes"});
}

TEST_F(ValidatorTest, CoreIndexOutOfRange) {
  recs_[0].allocation = CompactAllocation(Allocation{{on(0, {0, 1, 2, 4})}});
  expect_violation({"job 1 was given core 4 of node n0, which has 4 cores"});
}

TEST_F(ValidatorTest, GpuIndexOutOfRange) {
  recs_[1].allocation = CompactAllocation(Allocation{{on(1, {0, 1}, {2})}});
  expect_violation({"job 2 was given GPU 2 of node n1, which has 2 GPUs"});
}

TEST_F(ValidatorTest, DuplicateNodeEntry) {
  recs_[0].allocation = CompactAllocation(Allocation{{on(0, {0, 1}), on(0, {2, 3})}});
  expect_violation({"job 1 lists node n0 twice"});
}

TEST_F(ValidatorTest, DuplicateCore) {
  recs_[0].allocation = CompactAllocation(Allocation{{on(0, {0, 1, 1, 3})}});
  expect_violation({"job 1 was given core 1 of node n0 twice"});
}

TEST_F(ValidatorTest, DuplicateGpu) {
  wl_.jobs[1].spec.resources.gpus = 2;
  recs_[1].allocation = CompactAllocation(Allocation{{on(1, {0, 1}, {1, 1})}});
  expect_violation({"job 2 was given GPU 1 of node n1 twice"});
}

TEST_F(ValidatorTest, WrongGpuType) {
  recs_[1].allocation = CompactAllocation(Allocation{{on(2, {0, 1}, {0})}});
  expect_violation({"job 2 requested GPU type 'a100'", "GPU 0 of node n2", "'v100'"});
}

TEST_F(ValidatorTest, AnyGpuTypeWhenNoneRequested) {
  wl_.jobs[1].spec.resources.gpu_type.clear();
  recs_[1].allocation = CompactAllocation(Allocation{{on(2, {0, 1}, {0})}});
  EXPECT_TRUE(validate().has_value());
}

// ---------------------------------------------------------------- (d) capacity

TEST_F(ValidatorTest, CoreUsedTwiceAtOnce) {
  recs_[2].allocation =
      CompactAllocation(Allocation{{on(1, {0, 1}), on(0, {2, 3})}});  // job 1 holds n0 until 100
  expect_violation({"core 2 of node n0 is used by job 1 [0, 100) and by job 3 [50, 80)"});
}

TEST_F(ValidatorTest, GpuUsedTwiceAtOnce) {
  wl_.jobs[2].spec.resources = {2, 2, 1, ""};
  recs_[2].start = t(49);
  recs_[2].end = t(79);
  recs_[2].allocation = CompactAllocation(Allocation{{on(1, {2, 3}, {0}), on(2, {2, 3}, {0})}});
  expect_violation({"GPU 0 of node n1 is used by job 2 [0, 50) and by job 3 [49, 79)"});
}

TEST_F(ValidatorTest, OverlapFoundWhateverTheRecordOrder) {
  recs_[2].allocation = CompactAllocation(Allocation{{on(1, {0, 1}), on(0, {2, 3})}});
  std::swap(recs_[0], recs_[3]);
  std::swap(recs_[1], recs_[2]);
  expect_violation({"core 2 of node n0", "job 1 [0, 100)", "job 3 [50, 80)"});
}

TEST_F(ValidatorTest, NestedIntervalClashes) {
  // Job 6 holds n2 core 1 for [0, 100); job 7 [10, 20) on core 0 ends in between. Job 3
  // [50, 80) inside job 6's span must still clash with it on core 1.
  wl_.jobs.push_back(make_job(6, 0, {0, 1, 0, ""}, 100, 100));
  wl_.jobs.push_back(make_job(7, 0, {0, 1, 0, ""}, 10, 10));
  recs_.push_back(make_record(6, 0, 0, 100, {on(2, {1})}));
  recs_.push_back(make_record(7, 0, 10, 20, {on(2, {0})}));
  recs_[2].allocation = CompactAllocation(Allocation{{on(1, {0, 1}), on(2, {0, 1})}});
  expect_violation({"core 1 of node n2 is used by job 6 [0, 100) and by job 3 [50, 80)"});
}

// ---------------------------------------------------------------- (e) reservations

// One 4-core node; job 1 runs first, job 2 (the whole node) is promised a start.
class ReservationTest : public ValidatorTest {
 protected:
  void SetUp() override {
    nodes_ = {NodeTopology::uniform("n0", 1, 4), NodeTopology::uniform("n1", 1, 4)};
    wl_.jobs = {make_job(1, 0, {0, 4, 0, ""}, 100, 100), make_job(2, 10, {0, 8, 0, ""}, 50, 50)};
    recs_ = {make_record(1, 0, 0, 100, {on(0, {0, 1, 2, 3})}),
             make_record(2, 10, 100, 150, {on(0, {0, 1, 2, 3}), on(1, {0, 1, 2, 3})})};
    reserve(recs_[1], 100, 10);
    rejected_.clear();
  }
  static void reserve(ScheduleRecord& r, std::int64_t start, std::int64_t at) {
    r.reserved_start = t(start);
    r.reserved_at = t(at);
  }
  void move(std::size_t rec, std::int64_t start) {
    recs_[rec].end = t(start + (recs_[rec].end - recs_[rec].start).count());
    recs_[rec].start = t(start);
  }
};

TEST_F(ReservationTest, OnTimePasses) {
  EXPECT_TRUE(validate(true).has_value());
}

TEST_F(ReservationTest, EarlyStartPasses) {
  reserve(recs_[1], 120, 10);
  EXPECT_TRUE(validate(true).has_value());
}

TEST_F(ReservationTest, UnexplainedDelay) {
  move(1, 120);
  expect_violation({"job 2 was promised a start by 100 (reservation made at 10) but started at "
                    "120, and no job running at 10 overran its time limit"},
                   true);
}

TEST_F(ReservationTest, NotCheckedUnlessAsked) {
  move(1, 120);
  EXPECT_TRUE(validate(false).has_value());
}

TEST_F(ReservationTest, DelayExcusedByOverrunningJob) {
  wl_.jobs[0].runtime = Duration::seconds(130);  // limit 100: outlives its estimate
  recs_[0].end = t(130);
  move(1, 130);
  const Status st = validate(true);
  EXPECT_TRUE(st.has_value()) << st.error().message;
}

TEST_F(ReservationTest, OverrunThatEndsBeforeThePromiseIsNoExcuse) {
  // Job 3 overran its limit but was gone by the promised start.
  wl_.jobs.push_back(make_job(3, 0, {0, 2, 0, ""}, 90, 50));
  recs_.push_back(make_record(3, 0, 0, 90, {on(1, {0, 1})}));
  move(1, 120);
  expect_violation({"job 2 was promised a start by 100"}, true);
}

TEST_F(ReservationTest, BackfilledJobStartedAfterThePromiseIsNoExcuse) {
  // Job 3 overran too, but it started after the reservation was made: a backfill that
  // delayed the reserved job, which is exactly the bug this check exists for.
  wl_.jobs.push_back(make_job(3, 20, {0, 4, 0, ""}, 110, 60));
  recs_.push_back(make_record(3, 20, 20, 130, {on(1, {0, 1, 2, 3})}));
  move(1, 130);
  expect_violation({"job 2 was promised a start by 100 (reservation made at 10) but started at 130"}, true);
}

TEST_F(ReservationTest, ExcuseMustBeRunningAtReservationTime) {
  // Job 3 ran [5, 120) against a 60 s limit. For a reservation made at 10 it excuses a
  // start at 120; for one made at 3, before job 3 started, it does not.
  wl_.jobs.push_back(make_job(3, 0, {0, 4, 0, ""}, 115, 60));
  recs_.push_back(make_record(3, 0, 5, 120, {on(1, {0, 1, 2, 3})}));
  move(1, 120);
  EXPECT_TRUE(validate(true).has_value());
  reserve(recs_[1], 100, 3);
  expect_violation({"job 2 was promised a start by 100 (reservation made at 3)"}, true);
}

TEST_F(ReservationTest, HalfAReservationIsAViolation) {
  recs_[1].reserved_at.reset();
  expect_violation({"job 2 has only one of reserved_start and reserved_at"}, true);
}

TEST_F(ReservationTest, PromiseBeforeItWasMade) {
  reserve(recs_[1], 5, 10);
  expect_violation({"job 2 was promised a start by 5, before the reservation was made at 10"}, true);
}

TEST_F(ReservationTest, ManyReservationsScanInOrder) {
  // Reservations made at increasing times; only the last one is late and unexplained.
  for (std::uint64_t id = 10; id < 20; ++id) {
    const std::int64_t s = 200 + static_cast<std::int64_t>(id - 10) * 10;
    wl_.jobs.push_back(make_job(id, 150, {0, 1, 0, ""}, 10, 10));
    recs_.push_back(make_record(id, 150, s, s + 10, {on(1, {0})}));
    reserve(recs_.back(), s, 150 + static_cast<std::int64_t>(id - 10));
  }
  EXPECT_TRUE(validate(true).has_value());
  reserve(recs_.back(), 280, 159);
  expect_violation({"job 19 was promised a start by 280 (reservation made at 159) but started at 290"}, true);
}

}  // namespace
}  // namespace fairway::sim

namespace fairway::sim {
namespace {

// Whole-node and whole-socket rounding (Kebnekaise): more cores than asked are accepted
// only in whole pieces, and never a whole piece more than the request needs.
class RoundingTest : public ::testing::Test {
 protected:
  // Two 2-socket nodes of 2 x 2 cores.
  Status run(Rounding rule, ResourceRequest req, std::vector<NodeAllocation> alloc) {
    nodes_ = {NodeTopology::uniform("a", 2, 2), NodeTopology::uniform("b", 2, 2)};
    WorkloadJob j;
    j.spec.id = JobId(1);
    j.spec.user = "u";
    j.spec.partition = "p";
    j.spec.resources = std::move(req);
    j.spec.time_limit = Duration::seconds(10);
    j.runtime = Duration::seconds(10);
    wl_.jobs = {j};
    ScheduleRecord r;
    r.id = JobId(1);
    r.end = Time::from_seconds(10);
    r.allocation = CompactAllocation(Allocation{std::move(alloc)});
    recs_ = {r};
    ValidationInput in;
    in.nodes = &nodes_;
    in.workload = &wl_;
    in.records = &recs_;
    in.rounding["p"] = rule;
    return validate_schedule(in);
  }
  std::vector<NodeTopology> nodes_;
  Workload wl_;
  std::vector<ScheduleRecord> recs_;
};

NodeAllocation cores_on(std::uint32_t node, std::vector<std::int32_t> cores) {
  return NodeAllocation{NodeIndex(node), std::move(cores), {}};
}

TEST_F(RoundingTest, FiveCoresBecomeTwoWholeNodesAboveOneNode) {
  EXPECT_TRUE(run(Rounding::kWholeNodesAboveOneNode, {0, 5, 0, ""},
                  {cores_on(0, {0, 1, 2, 3}), cores_on(1, {0, 1, 2, 3})}));
}

TEST_F(RoundingTest, UpToOneNodeTheCountIsExact) {
  const Status st = run(Rounding::kWholeNodesAboveOneNode, {0, 3, 0, ""}, {cores_on(0, {0, 1, 2, 3})});
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "job 1 was given 4 cores but requested 3");
}

TEST_F(RoundingTest, APartNodeIsRefused) {
  const Status st =
      run(Rounding::kWholeNodes, {0, 5, 0, ""}, {cores_on(0, {0, 1, 2, 3}), cores_on(1, {0, 1, 2})});
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("node b is not given whole (3 of 4 cores)"), std::string::npos)
      << st.error().message;
}

TEST_F(RoundingTest, AWholeNodeTooManyIsRefused) {
  const Status st =
      run(Rounding::kWholeNodes, {0, 3, 0, ""}, {cores_on(0, {0, 1, 2, 3}), cores_on(1, {0, 1, 2, 3})});
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("a whole node fewer would still hold it"), std::string::npos)
      << st.error().message;
}

TEST_F(RoundingTest, SocketsAreRoundedPerSocket) {
  EXPECT_TRUE(run(Rounding::kWholeSockets, {0, 3, 0, ""}, {cores_on(0, {0, 1, 2, 3})}));
  const Status half = run(Rounding::kWholeSockets, {0, 3, 0, ""}, {cores_on(0, {0, 1, 2}), cores_on(1, {0})});
  ASSERT_FALSE(half);
  EXPECT_NE(half.error().message.find("the socket at core 2 of node a is not given whole (1 of 2"),
            std::string::npos)
      << half.error().message;
}

TEST_F(RoundingTest, NodesTimesCoresRoundEachNodeOnItsOwn) {
  EXPECT_TRUE(
      run(Rounding::kWholeNodes, {2, 1, 0, ""}, {cores_on(0, {0, 1, 2, 3}), cores_on(1, {0, 1, 2, 3})}));
  const Status st = run(Rounding::kWholeSockets, {1, 1, 0, ""}, {cores_on(0, {0, 1, 2, 3})});
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("with a whole socket fewer"), std::string::npos) << st.error().message;
}

}  // namespace
}  // namespace fairway::sim
