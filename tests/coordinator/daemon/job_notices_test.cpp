// JobNotices on its own, over a real scheduling core and a fake Mailer that keeps what it
// is given: which --mail-type events mail whom, a failed end mailed as FAIL, the
// time-limit shares once per run, and an array mailed as one job.
#include "coordinator/daemon/job_notices.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "shared/config/config.h"

namespace fairway::daemon {
namespace {

// Keeps every message; fails them all when told to.
class FakeMailer : public Mailer {
 public:
  explicit FakeMailer(std::vector<std::string>& sent) : sent_(sent) {}
  Status send(const std::string& message) override {
    if (refuse) return make_error(ErrorCode::kNotFound, "no mail program");
    sent_.push_back(message);
    return ok_status();
  }
  void reap() override { ++reaped; }
  bool refuse = false;
  int reaped = 0;

 private:
  std::vector<std::string>& sent_;
};

class JobNoticesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto config = parse_config("[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n", "test");
    ASSERT_TRUE(config) << config.error().message;
    auto scheduler = Scheduler::create(*config);
    ASSERT_TRUE(scheduler) << scheduler.error().message;
    scheduler_ = std::move(*scheduler);
    auto mailer = std::make_unique<FakeMailer>(sent_);
    mailer_ = mailer.get();
    notices_ = std::make_unique<JobNotices>(std::move(mailer), *scheduler_);
  }

  JobSpec spec(std::uint64_t id, std::uint8_t mail_events) const {
    JobSpec s;
    s.id = JobId(id);
    s.user = "alice";
    s.account = "proj";
    s.name = "md";
    s.resources.cores = 1;
    s.time_limit = Duration::seconds(100);
    s.submit_time = t0_;
    s.mail_events = mail_events;
    return s;
  }
  // Submitted and started at t0_.
  void run(JobSpec s) {
    ASSERT_TRUE(scheduler_->submit(std::move(s), t0_));
    scheduler_->schedule(t0_);
  }
  static bool has(const std::string& message, const std::string& part) {
    return message.find(part) != std::string::npos;
  }

  Time t0_ = Time::from_seconds(1'700'000'000);
  std::unique_ptr<Scheduler> scheduler_;
  std::vector<std::string> sent_;
  FakeMailer* mailer_ = nullptr;
  std::unique_ptr<JobNotices> notices_;
};

TEST_F(JobNoticesTest, AJobMailsOnlyTheEventsItAskedForToItsMailUser) {
  JobSpec s = spec(5, kMailBegin);
  s.mail_user = "bob@example.org";
  run(s);
  notices_->about(JobId(5), kMailRequeue);
  EXPECT_TRUE(sent_.empty()) << "a requeue was not asked for";
  notices_->about(JobId(5), kMailBegin);
  ASSERT_EQ(sent_.size(), 1u);
  EXPECT_TRUE(has(sent_[0], "To: bob@example.org\n")) << sent_[0];
  EXPECT_TRUE(has(sent_[0], "Job_id=5 Name=md Began")) << sent_[0];
}

TEST_F(JobNoticesTest, AJobThatAskedNothingIsNeverMailed) {
  run(spec(5, 0));
  notices_->about(JobId(5), kMailBegin);
  ASSERT_TRUE(scheduler_->finish(JobId(5), JobState::kFailed, t0_ + Duration::seconds(10)));
  notices_->about(JobId(5), kMailEnd);
  EXPECT_TRUE(sent_.empty());
}

TEST_F(JobNoticesTest, AFailedEndIsMailedAsFailWhenAskedAndAsEndOtherwise) {
  run(spec(5, kMailFail));
  run(spec(6, kMailEnd));
  run(spec(7, kMailFail));
  ASSERT_TRUE(scheduler_->finish(JobId(5), JobState::kFailed, t0_ + Duration::seconds(10)));
  ASSERT_TRUE(scheduler_->finish(JobId(6), JobState::kFailed, t0_ + Duration::seconds(10)));
  ASSERT_TRUE(scheduler_->finish(JobId(7), JobState::kCompleted, t0_ + Duration::seconds(10)));
  notices_->about(JobId(5), kMailEnd);
  notices_->about(JobId(6), kMailEnd);
  notices_->about(JobId(7), kMailEnd);
  ASSERT_EQ(sent_.size(), 2u) << "job 7 completed and asked only for FAIL";
  EXPECT_TRUE(has(sent_[0], "Job_id=5 Name=md Failed, Run time 00:00:10, FAILED")) << sent_[0];
  EXPECT_TRUE(has(sent_[1], "Job_id=6 Name=md Ended, Run time 00:00:10, FAILED")) << sent_[1];
}

TEST_F(JobNoticesTest, EachTimeLimitShareIsMailedOncePerRun) {
  run(spec(5, kMailTimeLimit50 | kMailTimeLimit80));
  notices_->time_limits(t0_ + Duration::seconds(49));
  EXPECT_TRUE(sent_.empty()) << "49 of 100 seconds is not half";
  notices_->time_limits(t0_ + Duration::seconds(50));
  ASSERT_EQ(sent_.size(), 1u);
  EXPECT_TRUE(has(sent_[0], "Reached 50% of time limit, Run time 00:00:50")) << sent_[0];
  notices_->time_limits(t0_ + Duration::seconds(60));
  EXPECT_EQ(sent_.size(), 1u) << "the 50% share was mailed again";
  notices_->time_limits(t0_ + Duration::seconds(95));
  ASSERT_EQ(sent_.size(), 2u) << "90% and 100% were not asked for";
  EXPECT_TRUE(has(sent_[1], "Reached 80% of time limit")) << sent_[1];
}

TEST_F(JobNoticesTest, ARequeuedJobsNextRunIsMailedItsSharesAgain) {
  run(spec(5, kMailTimeLimit50));
  notices_->time_limits(t0_ + Duration::seconds(50));
  ASSERT_EQ(sent_.size(), 1u);
  ASSERT_TRUE(scheduler_->requeue(JobId(5), t0_ + Duration::seconds(60)));
  const Time t1 = t0_ + Duration::hours(1);
  scheduler_->schedule(t1);
  ASSERT_EQ(scheduler_->job(JobId(5))->state, JobState::kRunning);
  notices_->time_limits(t1 + Duration::seconds(49));
  EXPECT_EQ(sent_.size(), 1u) << "the first run's share counted for the second";
  notices_->time_limits(t1 + Duration::seconds(50));
  EXPECT_EQ(sent_.size(), 2u) << "the second run's 50% was not mailed";
}

TEST_F(JobNoticesTest, AnArrayWhoseBeginWasMailedBeforeARestartIsNotMailedAgain) {
  JobSpec s = spec(10, kMailBegin);
  s.array = *parse_array_spec("0-1", 100);
  run(s);
  notices_->array_begin_mailed(JobId(10));  // recovery: a task had started
  notices_->about(JobId(11), kMailBegin);
  EXPECT_TRUE(sent_.empty()) << sent_.front();
}

TEST_F(JobNoticesTest, AnArrayMailsItsBeginOnceAndItsEndAsOneJob) {
  JobSpec s = spec(10, kMailBegin | kMailFail);
  s.array = *parse_array_spec("0-1", 100);
  run(s);
  notices_->about(JobId(11), kMailBegin);
  notices_->about(JobId(12), kMailBegin);
  ASSERT_EQ(sent_.size(), 1u) << "the array's begin is mailed once, not per task";
  EXPECT_TRUE(has(sent_[0], "Array Job_id=10_* (10) Name=md Began")) << sent_[0];
  ASSERT_TRUE(scheduler_->finish(JobId(11), JobState::kFailed, t0_ + Duration::seconds(10)));
  notices_->about(JobId(11), kMailEnd);
  EXPECT_EQ(sent_.size(), 1u) << "a task's end is not mailed";

  ArrayJob ended;
  ended.prototype.spec = s;
  ended.any_failed = true;
  notices_->array_ended(ended);
  ASSERT_EQ(sent_.size(), 2u);
  EXPECT_TRUE(has(sent_[1], "Array Job_id=10_* (10) Name=md Failed, FAILED")) << sent_[1];
  ended.any_failed = false;
  notices_->array_ended(ended);
  EXPECT_EQ(sent_.size(), 2u) << "a completed array that asked only FAIL is not mailed";
}

TEST_F(JobNoticesTest, AMailerErrorIsNotRetriedAndReapGoesToTheMailer) {
  run(spec(5, kMailBegin));
  mailer_->refuse = true;
  notices_->about(JobId(5), kMailBegin);
  mailer_->refuse = false;
  notices_->reap();
  EXPECT_TRUE(sent_.empty());
  EXPECT_EQ(mailer_->reaped, 1);
}

}  // namespace
}  // namespace fairway::daemon
