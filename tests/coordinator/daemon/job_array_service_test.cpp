// Job arrays at the coordinator, synchronously: one stored row and one queue line for the
// waiting tasks, a row of its own for each task that starts or is acted on alone, the
// launch's SLURM_ARRAY_* facts, cancel of a task or the whole array by its owner only,
// and a restart that brings back exactly the tasks not yet run.
#include <gtest/gtest.h>

#include <unistd.h>
#include <map>

#include "coordinator/daemon/coordinator_service.h"
#include "service_test_fixture.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

class JobArrayService : public test_support::ServiceTest {
 protected:
  std::unique_ptr<ClientAuthenticator> authenticator() const override {
    return std::make_unique<test_support::LocalUsers>();
  }
  // Sends `m` as `uid` (alice unless told); returns the client reply.
  wire::Message ask(const wire::Message& m, std::uint32_t uid = 1001) { return ServiceTest::ask(m, uid); }
  // `running`: jobs the agent still runs, on the cores they were launched on.
  void register_n1(const std::vector<JobId>& running = {}) {
    register_node("n1", 4, as_running(running, t_));
  }
  JobId submit_array(const std::string& indices) {
    wire::SubmitRequest r;
    r.spec.array = *parse_array_spec(indices, kMaxArrayIndex);
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    r.program.stdout_path = "/tmp/out_%A_%a.txt";
    auto m = ask(r);
    const auto* ok = std::get_if<wire::SubmitReply>(&m);
    EXPECT_NE(ok, nullptr) << (std::holds_alternative<wire::ErrorReply>(m)
                                   ? std::get<wire::ErrorReply>(m).message
                                   : "");
    return ok ? ok->job : JobId(0);
  }
  void report(JobId job, JobState state) {
    ServiceTest::report(job, state, state == JobState::kCompleted ? 0 : 1);
  }
  // The queue as users see it: id text -> state.
  std::map<std::string, JobState> queue(bool all = false) {
    wire::JobQuery q;
    q.include_finished = all;
    std::map<std::string, JobState> out;
    const wire::Message reply = ask(q);
    for (const wire::JobView& v : std::get<wire::JobQueryReply>(reply).jobs) {
      out[v.array_job.value() != 0 ? std::to_string(v.array_job.value()) + "_" + v.array_tasks
                                   : std::to_string(v.id.value())] = v.state;
    }
    return out;
  }
  wire::JobControlReply control(wire::JobAction action, std::vector<JobId> jobs,
                                std::vector<std::pair<JobId, std::int32_t>> tasks = {},
                                std::uint32_t uid = 1001) {
    wire::JobControl c{action, std::move(jobs), "", 0, false, {}, {}};
    for (auto [a, i] : tasks) {
      c.task_arrays.push_back(a);
      c.task_indices.push_back(i);
    }
    auto m = ask(c, uid);
    EXPECT_TRUE(std::holds_alternative<wire::JobControlReply>(m));
    return std::holds_alternative<wire::JobControlReply>(m) ? std::get<wire::JobControlReply>(m)
                                                            : wire::JobControlReply{};
  }
};

TEST_F(JobArrayService, TasksLaunchWithTheirArrayFactsAndTheRestWaitOnOneLine) {
  register_n1();
  const JobId a = submit_array("0-9%2");
  ASSERT_EQ(launches_.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const wire::LaunchJob& l = launches_[i];
    EXPECT_EQ(l.job, JobId(a.value() + 1 + i));
    EXPECT_EQ(l.array.array_job, a);
    EXPECT_EQ(l.array.task, static_cast<std::int32_t>(i));
    EXPECT_EQ(l.array.count, 10);
    EXPECT_EQ(l.array.min, 0);
    EXPECT_EQ(l.array.max, 9);
    EXPECT_EQ(l.program.stdout_path, "/tmp/out_%A_%a.txt");
  }
  const std::string A = std::to_string(a.value());
  EXPECT_EQ(queue(), (std::map<std::string, JobState>{{A + "_0", JobState::kRunning},
                                                      {A + "_1", JobState::kRunning},
                                                      {A + "_[2-9%2]", JobState::kPending}}));
  wire::JobQuery q;
  q.jobs = {a};
  // Asked by the array's id: its waiting line and every task, as squeue -j.
  const auto line = std::get<wire::JobQueryReply>(ask(q)).jobs;
  ASSERT_EQ(line.size(), 3u);
  EXPECT_EQ(line[0].array_tasks, "[2-9%2]");
  EXPECT_EQ(line[0].reasons, std::vector<std::string>{"JobArrayTaskLimit"});
  EXPECT_EQ(line[1].array_tasks, "0");
  EXPECT_EQ(line[2].array_tasks, "1");

  // squeue -r: every waiting task on its own line, under its own id.
  wire::JobQuery expanded;
  expanded.expand_arrays = true;
  const wire::Message each = ask(expanded);
  const auto& views = std::get<wire::JobQueryReply>(each).jobs;
  ASSERT_EQ(views.size(), 10u);
  for (std::size_t i = 0; i < views.size(); ++i) {
    EXPECT_EQ(views[i].id, JobId(a.value() + 1 + i));
    EXPECT_EQ(views[i].array_tasks, std::to_string(i));
    EXPECT_EQ(views[i].state, i < 2 ? JobState::kRunning : JobState::kPending);
  }

  // A task ends; the next starts in its place.
  report(JobId(a.value() + 1), JobState::kCompleted);
  ASSERT_EQ(launches_.size(), 3u);
  EXPECT_EQ(launches_.back().array.task, 2);
  EXPECT_EQ(queue().at(A + "_[3-9%2]"), JobState::kPending);
  EXPECT_EQ(queue(true).at(A + "_0"), JobState::kCompleted);
}

TEST_F(JobArrayService, ARestartBringsBackTheWaitingTasksButNotTheOnesThatRanOrEnded) {
  register_n1();
  const JobId a = submit_array("1-6%2");
  const std::string A = std::to_string(a.value());
  report(JobId(a.value() + 1), JobState::kCompleted);  // task 1 ends, task 3 starts
  ASSERT_TRUE(std::get<wire::JobControlReply>(
                  ask(wire::JobControl{wire::JobAction::kHold, {}, "", 0, false, {a}, {6}}))
                  .results.at(0)
                  .ok);
  const auto before = queue(true);
  EXPECT_EQ(before, (std::map<std::string, JobState>{{A + "_1", JobState::kCompleted},
                                                     {A + "_2", JobState::kRunning},
                                                     {A + "_3", JobState::kRunning},
                                                     {A + "_6", JobState::kHeld},
                                                     {A + "_[4-5%2]", JobState::kPending}}));
  reopen();
  register_n1({JobId(a.value() + 2), JobId(a.value() + 3)});
  EXPECT_EQ(queue(true), before);
  const std::size_t launched = launches_.size();
  report(JobId(a.value() + 2), JobState::kCompleted);
  ASSERT_EQ(launches_.size(), launched + 1);
  EXPECT_EQ(launches_.back().array.task, 4);
}

TEST_F(JobArrayService, OneTaskOrTheWholeArrayIsCancelledByItsOwnerOnly) {
  register_n1();
  const JobId a = submit_array("0-99");
  const std::string A = std::to_string(a.value());
  ASSERT_EQ(launches_.size(), 4u);  // four cores
  // Bob can neither cancel the array nor one of its tasks.
  auto refused = control(wire::JobAction::kCancel, {a}, {{a, 50}}, 1002);
  ASSERT_EQ(refused.results.size(), 2u);
  EXPECT_FALSE(refused.results[0].ok);
  EXPECT_NE(refused.results[0].message.find("belongs to 'alice'"), std::string::npos)
      << refused.results[0].message;
  EXPECT_FALSE(refused.results[1].ok);
  EXPECT_NE(refused.results[1].message.find("belongs to 'alice'"), std::string::npos)
      << refused.results[1].message;
  EXPECT_EQ(queue().at(A + "_[4-99]"), JobState::kPending);

  // Changing every task at once is refused, saying so, rather than half done.
  wire::JobUpdate u;
  u.jobs = {a};
  u.name = "renamed";
  const wire::Message updated = ask(u);
  ASSERT_TRUE(std::holds_alternative<wire::JobControlReply>(updated));
  EXPECT_NE(std::get<wire::JobControlReply>(updated).results.at(0).message.find("is a job array"),
            std::string::npos);

  auto one = control(wire::JobAction::kCancel, {}, {{a, 50}, {a, 100}});
  ASSERT_EQ(one.results.size(), 2u);
  EXPECT_TRUE(one.results[0].ok) << one.results[0].message;
  EXPECT_FALSE(one.results[1].ok);  // not one of its indices
  EXPECT_NE(one.results[1].message.find("not found"), std::string::npos);
  EXPECT_EQ(queue().at(A + "_[4-49,51-99]"), JobState::kPending);
  EXPECT_EQ(queue(true).at(A + "_50"), JobState::kCancelled);

  // The whole array: the waiting tasks end at once, the running ones are told to stop.
  auto all = control(wire::JobAction::kCancel, {a});
  ASSERT_EQ(all.results.size(), 1u);
  EXPECT_TRUE(all.results[0].ok) << all.results[0].message;
  EXPECT_EQ(signalled_.size(), 4u);
  for (std::uint64_t i = 1; i <= 4; ++i) report(JobId(a.value() + i), JobState::kCancelled);
  EXPECT_TRUE(queue().empty());
  EXPECT_EQ(service_->scheduler().array(a), nullptr);
  EXPECT_TRUE(launches_.size() == 4u) << "a cancelled array started more tasks";
  // After a restart it stays ended: nothing waits, nothing launches.
  reopen();
  register_n1();
  EXPECT_TRUE(queue().empty());
  EXPECT_EQ(launches_.size(), 4u);
}

TEST_F(JobArrayService, AnArrayWhoseDependencyFailsIsCancelledWholeAndTheServiceGoesOn) {
  register_n1();
  wire::SubmitRequest first;
  first.spec.resources.cores = 1;
  first.program.argv = {"false"};
  first.program.working_dir = "/tmp";
  const JobId x = std::get<wire::SubmitReply>(ask(first)).job;
  ASSERT_EQ(launches_.size(), 1u);
  wire::SubmitRequest r;
  r.spec.array = *parse_array_spec("0-99", kMaxArrayIndex);
  r.spec.dependencies = {{DependencyType::kAfterOk, {x}}};
  r.spec.kill_on_invalid_dep = true;
  r.program.argv = {"true"};
  r.program.working_dir = "/tmp";
  const JobId a = std::get<wire::SubmitReply>(ask(r)).job;
  const std::string A = std::to_string(a.value());
  EXPECT_EQ(queue().at(A + "_[0-99]"), JobState::kPending);
  // Tasks were made for the pass (waiting on the dependency) without rows of their own:
  // cancelling them must write those rows, not fail the commit.
  report(x, JobState::kFailed);
  EXPECT_TRUE(service_->failed()) << service_->failed().error().message;
  EXPECT_TRUE(queue().empty());
  EXPECT_EQ(service_->scheduler().array(a), nullptr);
  const auto all = queue(true);
  EXPECT_EQ(all.at(A + "_0"), JobState::kCancelled);
  wire::JobQuery q;
  q.jobs = {JobId(a.value() + 1)};
  const wire::Message shown = ask(q);
  EXPECT_NE(std::get<wire::JobQueryReply>(shown).jobs.at(0).state_reason.find("can never be satisfied"),
            std::string::npos);
  reopen();
  register_n1();
  EXPECT_TRUE(queue().empty());
  EXPECT_EQ(launches_.size(), 1u);
}

TEST_F(JobArrayService, ARequeuedTaskKeepsItsReasonAcrossARestart) {
  register_n1();
  const JobId a = submit_array("0-1");
  const JobId task(a.value() + 1);
  auto requeue = control(wire::JobAction::kRequeue, {}, {{a, 0}});
  ASSERT_TRUE(requeue.results.at(0).ok) << requeue.results.at(0).message;
  report(task, JobState::kCancelled);  // its processes stopped for the requeue
  const auto reason_of = [&] {
    wire::JobQuery q;
    q.jobs = {task};
    const wire::Message m = ask(q);
    return std::get<wire::JobQueryReply>(m).jobs.at(0).state_reason;
  };
  EXPECT_EQ(reason_of(), "requeued on request");
  reopen();
  EXPECT_EQ(reason_of(), "requeued on request");
}

TEST_F(JobArrayService, ASubmissionCannotMakeItselfATaskOfAnotherUsersArray) {
  const JobId a = submit_array("0-99");  // no node: every task waits
  // Bob cannot pass a job of his off as one of alice's tasks: the coordinator makes tasks,
  // a submission never names itself one.
  wire::SubmitRequest forged;
  forged.spec.array_job = a;
  forged.spec.array_task = 60;
  forged.program.argv = {"true"};
  forged.program.working_dir = "/tmp";
  const wire::Message bobs = ask(forged, 1002);
  ASSERT_TRUE(std::holds_alternative<wire::SubmitReply>(bobs));
  const JobId bob_job = std::get<wire::SubmitReply>(bobs).job;
  EXPECT_GT(bob_job.value(), a.value() + 100);  // past the array's ids
  const JobRecord* bob_rec = service_->scheduler().job(bob_job);
  ASSERT_NE(bob_rec, nullptr);
  EXPECT_FALSE(bob_rec->spec.is_array_task());
  EXPECT_TRUE(service_->scheduler().array(a)->unsplit.contains(60));  // alice's task 60 still waits
}

TEST_F(JobArrayService, ABadArrayIsRefusedNamingTheIndex) {
  config_.limits.max_array_size = 1001;
  reopen();
  wire::SubmitRequest r;
  r.spec.array = *parse_array_spec("0-5000", kMaxArrayIndex);
  r.program.argv = {"true"};
  r.program.working_dir = "/tmp";
  auto m = ask(r);
  ASSERT_TRUE(std::holds_alternative<wire::ErrorReply>(m));
  EXPECT_NE(
      std::get<wire::ErrorReply>(m).message.find("--array index 5000 is over the largest allowed, 1000"),
      std::string::npos)
      << std::get<wire::ErrorReply>(m).message;
  // The refused array used no ids.
  const JobId next = submit_array("0-1");
  EXPECT_EQ(next, JobId(1));
}

}  // namespace
}  // namespace fairway::daemon
