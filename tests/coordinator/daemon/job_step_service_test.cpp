// Multi-node jobs and steps at the coordinator, synchronously: every node of a job but its
// first gets an extern-only launch and keeps it across a re-registration until the job
// stops; a step runs only for the job's owner (or root), as one LaunchStep per node; what
// a client may not ask for is refused naming the field.
#include <gtest/gtest.h>

#include <csignal>
#include <set>

#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon {
namespace {

class JobStepService : public test_support::CoordinatorFixture {
 protected:
  std::unique_ptr<ClientAuthenticator> authenticator() const override {
    return std::make_unique<test_support::LocalUsers>();
  }
  void SetUp() override {
    open("[[nodes]]\nnames = \"n[1-2]\"\nsockets = 1\ncores_per_socket = 4\n");
    if (HasFatalFailure()) return;
    for (const char* n : {"n1", "n2"}) register_node(n, 4);
  }
  JobId two_node_job(std::int32_t warn_signal = 0) {
    wire::SubmitRequest r;
    r.spec.warn_signal = warn_signal;
    r.spec.warn_before_s = warn_signal != 0 ? 60 : 0;
    r.spec.resources.nodes = 2;
    r.spec.resources.cores = 4;  // on each node
    r.spec.tasks.ntasks = 8;
    r.program.argv = {"sleep", "100"};
    r.program.working_dir = "/tmp";
    auto m = ask(r, 1001);
    EXPECT_TRUE(std::holds_alternative<wire::SubmitReply>(m)) << error_of(m);
    return std::holds_alternative<wire::SubmitReply>(m) ? std::get<wire::SubmitReply>(m).job : JobId(0);
  }
  wire::StepRequest step(JobId job) {
    return wire::StepRequest{job,
                             {"hostname"},
                             {{"HOME", "/home/alice"}},
                             "/home/alice",
                             0,
                             0,
                             "tcp://10.0.0.9:41000",
                             "0123456789abcdef0123456789abcdef",
                             false,
                             {},
                             {},
                             0,
                             0,
                             "",
                             "",
                             "",
                             false};
  }
};

TEST_F(JobStepService, TheOtherNodeHoldsTheJobUntilItStops) {
  const JobId id = two_node_job(SIGUSR1);
  const auto launches = sent<wire::LaunchJob>();
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_FALSE(launches[0].second.extern_only);
  EXPECT_EQ(launches[0].second.program.argv, (std::vector<std::string>{"sleep", "100"}));
  EXPECT_TRUE(launches[1].second.extern_only);
  EXPECT_NE(launches[0].first, launches[1].first);
  EXPECT_TRUE(launches[1].second.program.argv.empty()) << "nothing of the job's runs on its other nodes";
  EXPECT_EQ(launches[1].second.cores.size(), 4u);
  // --signal warns the script, on the first node; the holder must not get it.
  EXPECT_EQ(launches[0].second.warn_signal, SIGUSR1);
  EXPECT_EQ(launches[1].second.warn_signal, 0);
  const std::string member = launches[1].first;

  // The member's agent restarts and lists the job: it is the job's, not a stray to kill.
  to_agents_.clear();
  register_node(member, 4, {{id, launches[1].second.cores, {}, t_, 4242}});
  EXPECT_TRUE(sent<wire::SignalJob>().empty());

  // The job ends on its first node: the other is released, its steps' tasks with the
  // rest of their grace (a stop can only shorten it there), its holder at once.
  wire::JobStatusUpdate u{launches[0].first, 1,  id, JobState::kCompleted, 0,
                          std::nullopt,      t_, "", std::nullopt,         std::nullopt};
  service_->on_agent_frame(launches[0].first, wire::encode(u), t_, launches[0].first);
  (void)turn();
  const auto signals = sent<wire::SignalJob>();
  ASSERT_EQ(signals.size(), 1u);
  EXPECT_EQ(signals[0].first, member);
  EXPECT_EQ(signals[0].second.job, id);
  EXPECT_EQ(signals[0].second.signal, SIGTERM);
  EXPECT_EQ(signals[0].second.grace, Duration::seconds(30));
}

// A cancel reaches every node of the job at once: its steps' tasks there get the grace
// the script gets, not only the SIGKILL once the script has gone. scancel --signal too.
TEST_F(JobStepService, ACancelAndASignalReachEveryNodeOfTheJob) {
  const JobId id = two_node_job();
  const auto launches = sent<wire::LaunchJob>();
  ASSERT_EQ(launches.size(), 2u);
  to_agents_.clear();
  wire::JobControl sig{wire::JobAction::kSignal, {id}, "alice", SIGUSR1, false};
  ASSERT_FALSE(std::holds_alternative<wire::ErrorReply>(ask(sig, 1001)));
  auto usr1 = sent<wire::SendSignal>();
  ASSERT_EQ(usr1.size(), 2u);
  EXPECT_EQ(usr1[0].first, launches[0].first);
  EXPECT_EQ(usr1[1].first, launches[1].first);
  to_agents_.clear();
  sig.batch_only = true;
  ASSERT_FALSE(std::holds_alternative<wire::ErrorReply>(ask(sig, 1001)));
  ASSERT_EQ(sent<wire::SendSignal>().size(), 1u) << "-b: the script, on the first node alone";
  to_agents_.clear();
  ASSERT_FALSE(std::holds_alternative<wire::ErrorReply>(
      ask(wire::JobControl{wire::JobAction::kCancel, {id}, "alice"}, 1001)));
  const auto stops = sent<wire::SignalJob>();
  ASSERT_EQ(stops.size(), 2u);
  for (const auto& [node, stop] : stops) {
    EXPECT_EQ(stop.signal, SIGTERM) << node;
    EXPECT_EQ(stop.grace, Duration::seconds(30)) << node;
  }
  EXPECT_NE(stops[0].first, stops[1].first);
}

TEST_F(JobStepService, OnlyTheOwnerOrRootRunsAStepAsOneLaunchPerNode) {
  const JobId id = two_node_job();
  to_agents_.clear();
  EXPECT_NE(error_of(ask(step(id), 1002)).find("belongs to 'alice', not 'bob'"), std::string::npos);
  // An admin may cancel the job, but a step would run commands as alice.
  EXPECT_NE(error_of(ask(step(id), 1003)).find("only its owner runs steps in it"), std::string::npos);
  EXPECT_TRUE(sent<wire::LaunchStep>().empty());

  auto m = ask(step(id), 1001);
  ASSERT_TRUE(std::holds_alternative<wire::StepReply>(m)) << error_of(m);
  const auto& reply = std::get<wire::StepReply>(m);
  EXPECT_EQ(reply.step, 0);
  ASSERT_EQ(reply.nodes.size(), 2u);
  EXPECT_EQ(reply.tasks_per_node, (std::vector<std::int32_t>{4, 4}));
  const auto launched = sent<wire::LaunchStep>();
  ASSERT_EQ(launched.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(launched[i].first, reply.nodes[i]);
    EXPECT_EQ(launched[i].second.node_index, static_cast<std::int32_t>(i));
    EXPECT_EQ(launched[i].second.user, "alice");
    EXPECT_EQ(launched[i].second.uid, 1001u);
    EXPECT_EQ(launched[i].second.io_key, step(id).io_key);
    EXPECT_EQ(launched[i].second.argv, (std::vector<std::string>{"hostname"}));
  }
  auto by_root = ask(step(id), 0);
  ASSERT_TRUE(std::holds_alternative<wire::StepReply>(by_root)) << error_of(by_root);
  EXPECT_EQ(std::get<wire::StepReply>(by_root).step, 1);
}

// mpirun's daemons: srun -N1 -n1 -w NODE runs on that node of the job alone, with the
// binding and distribution srun was given passed on to it.
TEST_F(JobStepService, AStepRunsOnTheNodesOfTheJobItNames) {
  const JobId id = two_node_job();
  to_agents_.clear();
  auto first = ask(step(id), 1001);
  ASSERT_TRUE(std::holds_alternative<wire::StepReply>(first)) << error_of(first);
  const std::string second = std::get<wire::StepReply>(first).nodes[1];
  to_agents_.clear();
  auto orted = step(id);
  orted.nodes = 1;
  orted.ntasks = 1;
  orted.ntasks_per_node = 1;
  orted.nodelist = {second};
  orted.cpu_bind = "none";
  orted.distribution = "cyclic";
  auto m = ask(orted, 1001);
  ASSERT_TRUE(std::holds_alternative<wire::StepReply>(m)) << error_of(m);
  EXPECT_EQ(std::get<wire::StepReply>(m).nodes, (std::vector<std::string>{second}));
  EXPECT_EQ(std::get<wire::StepReply>(m).tasks_per_node, (std::vector<std::int32_t>{1}));
  const auto launched = sent<wire::LaunchStep>();
  ASSERT_EQ(launched.size(), 1u);
  EXPECT_EQ(launched[0].first, second);
  EXPECT_EQ(launched[0].second.node_index, 0);
  EXPECT_EQ(launched[0].second.cpu_bind, "none");
  EXPECT_EQ(launched[0].second.distribution, "cyclic");
  orted.nodelist = {"nowhere"};
  EXPECT_EQ(error_of(ask(orted, 1001)),
            "job " + std::to_string(id.value()) + ": --nodelist: node nowhere is not one of the job's nodes");
}

// srun --exclusive (or --exact) inside a job: each step holds cores of its own on its
// node, bound there; one that finds none free is told so (srun retries, in Slurm's words)
// until a step ends. Other steps share the job's cores, as before.
TEST_F(JobStepService, ExclusiveStepsHoldCoresOfTheirOwnAndTheNextWaits) {
  const JobId id = two_node_job();
  auto one = step(id);
  one.nodes = 1;
  one.ntasks = 1;
  one.exclusive = true;
  std::vector<std::int32_t> held;
  std::vector<std::int32_t> numbers;
  while (true) {
    to_agents_.clear();
    auto m = ask(one, 1001);
    if (!std::holds_alternative<wire::StepReply>(m)) {
      const auto* e = std::get_if<wire::ErrorReply>(&m);
      ASSERT_TRUE(e);
      EXPECT_EQ(e->code, ErrorCode::kUnavailable);
      EXPECT_EQ(e->message, "Requested nodes are busy");
      break;
    }
    numbers.push_back(std::get<wire::StepReply>(m).step);
    const auto launched = sent<wire::LaunchStep>();
    ASSERT_EQ(launched.size(), 1u);
    ASSERT_EQ(launched[0].second.cores.size(), 1u);
    held.push_back(launched[0].second.cores[0]);
    ASSERT_LT(held.size(), 64u) << "never refused";
  }
  ASSERT_GE(held.size(), 2u);
  EXPECT_EQ(std::set<std::int32_t>(held.begin(), held.end()).size(), held.size()) << "no core held twice";
  // A step that shares runs meanwhile, on all of the job's cores there.
  to_agents_.clear();
  auto shared = one;
  shared.exclusive = false;
  ASSERT_TRUE(std::holds_alternative<wire::StepReply>(ask(shared, 1001)));
  EXPECT_TRUE(sent<wire::LaunchStep>().at(0).second.cores.empty());
  // The second exclusive step ends: its core goes to the next.
  (void)ask(wire::StepEnded{id, numbers[1], 0, 0}, 1001);
  to_agents_.clear();
  auto m = ask(one, 1001);
  ASSERT_TRUE(std::holds_alternative<wire::StepReply>(m)) << error_of(m);
  EXPECT_EQ(sent<wire::LaunchStep>().at(0).second.cores, std::vector<std::int32_t>{held[1]});
}

TEST_F(JobStepService, WhatAStepMayNotAskIsNamed) {
  const JobId id = two_node_job();
  auto bad = step(id);
  bad.io_key = "short";
  EXPECT_EQ(error_of(ask(bad, 1001)), "StepRequest.io_key: at least 16 bytes");
  bad = step(id);
  bad.io_address = "ipc:///tmp/x";
  EXPECT_EQ(error_of(ask(bad, 1001)), "StepRequest.io_address: expected tcp://HOST:PORT, got 'ipc:///tmp/x'");
  bad = step(id);
  bad.nodes = 3;
  EXPECT_NE(error_of(ask(bad, 1001))
                .find("job " + std::to_string(id.value()) + ": the step asks for 3 nodes, the job has 2"),
            std::string::npos);
  bad = step(id);
  bad.ntasks = 9;
  EXPECT_NE(error_of(ask(bad, 1001)).find("asks for 9 tasks on 2 nodes"), std::string::npos);
  bad = step(id);
  bad.argv.clear();
  EXPECT_EQ(error_of(ask(bad, 1001)), "StepRequest.argv: names no command");
  EXPECT_NE(error_of(ask(step(JobId(4242)), 1001)).find("job 4242 does not exist"), std::string::npos);
}

}  // namespace
}  // namespace fairway::daemon

namespace fairway::daemon {
namespace {

// salloc and srun outside a job end their allocation with their command's outcome: it ends
// COMPLETED or FAILED with that exit code (as in Slurm), not CANCELLED by the kill that
// stops its holder. Only the owner (or an admin) may, and only for an allocation: a batch
// job's outcome is its script's, which nobody may overwrite.
TEST_F(JobStepService, AnAllocationEndsWithItsCommandsOutcomeByItsOwnerOnly) {
  const auto allocation = [&](std::uint32_t uid) {
    wire::SubmitRequest r;
    r.spec.interactive = true;
    r.spec.name = "sh";
    r.program.argv = {"/bin/sh", "-c", "exec sleep infinity"};
    r.program.working_dir = "/tmp";
    auto m = ask(r, uid);
    EXPECT_TRUE(std::holds_alternative<wire::SubmitReply>(m)) << error_of(m);
    return std::get<wire::SubmitReply>(m).job;
  };
  const auto end = [&](JobId id, std::int32_t code, std::uint32_t uid) {
    wire::JobControl c;
    c.action = wire::JobAction::kEndAllocation;
    c.jobs = {id};
    c.exit_code = code;
    return ask(c, uid);
  };
  const auto result_of = [&](const wire::Message& m) {
    const auto* r = std::get_if<wire::JobControlReply>(&m);
    return r == nullptr || r->results.empty() ? wire::JobControlResult{} : r->results.front();
  };
  const auto show = [&](JobId id) {
    wire::JobQuery q;
    q.jobs = {id};
    auto m = ask(q, 1001);
    const auto* r = std::get_if<wire::JobQueryReply>(&m);
    EXPECT_TRUE(r != nullptr && r->jobs.size() == 1) << error_of(m);
    return r != nullptr && !r->jobs.empty() ? r->jobs.front() : wire::JobView{};
  };
  const auto holder_killed = [&](JobId id) {
    const auto launches = sent<wire::LaunchJob>();
    for (const auto& [node, launch] : launches) {
      if (launch.job != id) continue;
      wire::JobStatusUpdate u{node,         7 + id.value(), id, JobState::kCancelled,
                              std::nullopt, SIGTERM,        t_, "",
                              std::nullopt, std::nullopt};
      service_->on_agent_frame(node, wire::encode(u), t_, node);
      (void)turn();
    }
  };

  const JobId failed = allocation(1001);
  EXPECT_FALSE(result_of(end(failed, 3, 1002)).ok) << "bob may not end alice's allocation";
  EXPECT_EQ(show(failed).state, JobState::kRunning);
  EXPECT_TRUE(result_of(end(failed, 3, 1001)).ok);
  holder_killed(failed);
  EXPECT_EQ(show(failed).state, JobState::kFailed);
  EXPECT_EQ(show(failed).exit_code, 3);
  EXPECT_EQ(show(failed).signal, std::nullopt);

  const JobId completed = allocation(1001);
  EXPECT_TRUE(result_of(end(completed, 0, 1003)).ok) << "an admin may";
  holder_killed(completed);
  EXPECT_EQ(show(completed).state, JobState::kCompleted);

  const JobId batch = two_node_job();
  const auto refused = result_of(end(batch, 0, 1001));
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.message.find("is a batch job"), std::string::npos) << refused.message;
  EXPECT_EQ(show(batch).state, JobState::kRunning);
}

// sacct's ID.N lines: a step is recorded when it starts and ended by its srun's report,
// which only the job's owner (or root) may make; steps still open when the job stops were
// killed with it; a restarted coordinator keeps waiting for open steps and never reuses a
// step number.
class JobStepRecords : public JobStepService {
 protected:
  std::vector<wire::StepView> steps_of(JobId id, std::uint32_t uid = 1001, bool finished = false) {
    wire::JobQuery q;
    q.jobs = {id};
    q.with_steps = true;
    q.include_finished = finished;
    q.from_store = finished;
    auto m = ask(q, uid);
    const auto* r = std::get_if<wire::JobQueryReply>(&m);
    EXPECT_TRUE(r != nullptr && r->jobs.size() == 1) << error_of(m);
    return r != nullptr && !r->jobs.empty() ? r->jobs.front().steps : std::vector<wire::StepView>{};
  }
  std::int32_t start_step(JobId id, std::vector<std::string> argv, std::int32_t ntasks = 0) {
    wire::StepRequest s = step(id);
    s.argv = std::move(argv);
    s.ntasks = ntasks;
    auto m = ask(s, 1001);
    EXPECT_TRUE(std::holds_alternative<wire::StepReply>(m)) << error_of(m);
    return std::holds_alternative<wire::StepReply>(m) ? std::get<wire::StepReply>(m).step : -1;
  }
  void job_ends(JobId id) {
    for (const auto& [node, launch] : sent<wire::LaunchJob>()) {
      if (launch.job != id || launch.extern_only) continue;
      wire::JobStatusUpdate u{node, 90 + id.value(), id,          JobState::kCompleted, 0, std::nullopt, t_,
                              "",   std::nullopt,    std::nullopt};
      service_->on_agent_frame(node, wire::encode(u), t_, node);
      (void)turn();
    }
  }
};

TEST_F(JobStepRecords, AStepEndsAsItsSrunSaysByTheOwnerOnly) {
  const JobId id = two_node_job();
  t_ = t_ + Duration::seconds(5);
  EXPECT_EQ(start_step(id, {"/usr/bin/hostname"}), 0);
  EXPECT_EQ(start_step(id, {"sh", "-c", "exit 2"}, 1), 1);
  auto steps = steps_of(id);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].name, "hostname") << "named after its command's base name, as Slurm names it";
  EXPECT_EQ(steps[0].state, JobState::kRunning);
  EXPECT_EQ(steps[0].start_time, t_);
  EXPECT_FALSE(steps[0].end_time);
  EXPECT_EQ(steps[0].ntasks, 8);
  EXPECT_EQ(steps[0].nodes, 2);
  EXPECT_EQ(steps[1].ntasks, 1);
  EXPECT_EQ(steps[1].nodes, 1);

  // Bob may not say how alice's step ended, nor end one that does not exist.
  auto denied = ask(wire::StepEnded{id, 0, 0, 0}, 1002);
  ASSERT_TRUE(std::holds_alternative<wire::ErrorReply>(denied));
  EXPECT_EQ(std::get<wire::ErrorReply>(denied).code, ErrorCode::kPermissionDenied) << error_of(denied);
  // Nor may a node's agent: the message is a client's.
  service_->on_agent_frame("n1", wire::encode(wire::StepEnded{id, 0, 0, 0}), t_, "n1");
  (void)turn();
  auto unknown = ask(wire::StepEnded{id, 7, 0, 0}, 1001);
  EXPECT_EQ(std::get<wire::ErrorReply>(unknown).code, ErrorCode::kNotFound) << error_of(unknown);
  EXPECT_EQ(steps_of(id)[0].state, JobState::kRunning);

  t_ = t_ + Duration::seconds(3);
  EXPECT_TRUE(std::holds_alternative<wire::Ack>(ask(wire::StepEnded{id, 0, 0, 0}, 1001)));
  EXPECT_TRUE(std::holds_alternative<wire::Ack>(ask(wire::StepEnded{id, 1, 2, 0}, 0))) << "root may";
  auto again = ask(wire::StepEnded{id, 0, 1, 0}, 1001);
  EXPECT_EQ(std::get<wire::ErrorReply>(again).code, ErrorCode::kNotFound) << "a step ends once";
  steps = steps_of(id);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].state, JobState::kCompleted);
  EXPECT_EQ(steps[0].end_time, t_);
  EXPECT_EQ(steps[1].state, JobState::kFailed);
  EXPECT_EQ(steps[1].exit_code, 2);

  // A step killed by a signal, and one still open when its job ends: CANCELLED, 0:9.
  EXPECT_EQ(start_step(id, {"a.out"}), 2);
  EXPECT_EQ(start_step(id, {"b.out"}), 3);
  EXPECT_TRUE(std::holds_alternative<wire::Ack>(ask(wire::StepEnded{id, 2, 0, SIGSEGV}, 1001)));
  t_ = t_ + Duration::seconds(10);
  job_ends(id);
  steps = steps_of(id, 1001, true);
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[2].state, JobState::kCancelled);
  EXPECT_EQ(steps[2].signal, SIGSEGV);
  EXPECT_EQ(steps[3].state, JobState::kCancelled);
  EXPECT_EQ(steps[3].signal, SIGKILL);
  EXPECT_EQ(steps[3].end_time, t_);
  auto late = ask(wire::StepEnded{id, 3, 0, 0}, 1001);
  EXPECT_EQ(std::get<wire::ErrorReply>(late).code, ErrorCode::kNotFound) << "its job has ended";
}

TEST_F(JobStepRecords, ARestartedCoordinatorWaitsForOpenStepsAndNeverReusesANumber) {
  const JobId id = two_node_job();
  const auto launches = sent<wire::LaunchJob>();
  EXPECT_EQ(start_step(id, {"first"}), 0);
  EXPECT_EQ(start_step(id, {"second"}), 1);
  EXPECT_TRUE(std::holds_alternative<wire::Ack>(ask(wire::StepEnded{id, 0, 0, 0}, 1001)));

  reopen();
  ASSERT_FALSE(HasFatalFailure());
  for (const auto& [node, launch] : launches) {
    if (launch.job == id) register_node(node, 4, {{id, launch.cores, {}, t_, 4242}});
  }
  EXPECT_EQ(start_step(id, {"third"}), 2) << "numbers go on from the stored steps";
  EXPECT_TRUE(std::holds_alternative<wire::Ack>(ask(wire::StepEnded{id, 1, 0, 0}, 1001)))
      << "the step open before the restart can still end";
  const auto steps = steps_of(id);
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].name, "first");
  EXPECT_EQ(steps[1].state, JobState::kCompleted);
  EXPECT_EQ(steps[2].state, JobState::kRunning);
}

}  // namespace
}  // namespace fairway::daemon
