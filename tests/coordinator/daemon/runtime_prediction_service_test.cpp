// scheduler.runtime_prediction at the coordinator, synchronously: predictions learnt from
// the agents' completions come back from the store after a restart, and `show job` of a
// waiting job shows its start planned by prediction and by limits.
#include <gtest/gtest.h>

#include "service_test_fixture.h"

namespace fairway::daemon {
namespace {

class RuntimePredictionService : public test_support::ServiceTest {
 protected:
  void SetUp() override {
    ServiceTest::SetUp();
    config_.scheduler.runtime_prediction = RuntimePrediction::kUserLast2;
    restart();
  }
  void restart() {
    reopen();
    register_node("n1", 4, running_);
  }
  JobId submit(Duration limit) {
    wire::SubmitRequest r = request(4);
    r.spec.time_limit = limit;
    return ServiceTest::submit(r);
  }
  // A job that runs `run` on the whole node and completes.
  void run_for(Duration run) {
    const JobId id = submit(Duration::hours(2));
    report(id, JobState::kRunning);
    t_ = t_ + run;
    report(id, JobState::kCompleted);
  }
  wire::JobView show(JobId id) { return view(id); }

  std::vector<wire::RunningJob> running_;
};

TEST_F(RuntimePredictionService, PredictionsComeBackFromTheStoreAndShowJobShowsBothStarts) {
  run_for(Duration::minutes(10));
  run_for(Duration::minutes(20));
  EXPECT_EQ(service_->scheduler().predicted_runtime("root", Duration::hours(2)), Duration::minutes(15));
  restart();  // memory is gone; the store's finished jobs teach it again
  EXPECT_EQ(service_->scheduler().predicted_runtime("root", Duration::hours(2)), Duration::minutes(15));

  const JobId running = submit(Duration::hours(2));
  report(running, JobState::kRunning);
  const Time started = t_;
  t_ = t_ + Duration::minutes(1);
  const JobId waiting = submit(Duration::hours(2));
  const wire::JobView v = show(waiting);
  EXPECT_EQ(v.state, JobState::kPending);
  EXPECT_EQ(v.predicted_runtime, Duration::minutes(15));
  EXPECT_EQ(v.estimated_start, started + Duration::minutes(15));
  EXPECT_EQ(v.estimated_start_by_limit, started + Duration::hours(2));
  EXPECT_EQ(show(running).predicted_runtime, Duration::minutes(15));
  EXPECT_FALSE(show(running).estimated_start_by_limit.has_value());

  // Without predictions a view carries neither.
  config_.scheduler.runtime_prediction = RuntimePrediction::kNone;
  for (const wire::LaunchJob& l : launches_) {
    if (l.job == running) running_.push_back({running, l.cores, l.gpus, started, 4242});
  }
  restart();
  const wire::JobView plain = show(waiting);
  EXPECT_FALSE(plain.predicted_runtime.has_value());
  EXPECT_FALSE(plain.estimated_start_by_limit.has_value());
  EXPECT_EQ(plain.estimated_start, started + Duration::hours(2));
}

}  // namespace
}  // namespace fairway::daemon
