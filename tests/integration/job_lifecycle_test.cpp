// A real coordinator and agents on ipc:// sockets: jobs run, write output, are cancelled,
// hit their walltime, are bound to their cores, and survive a coordinator restart.
#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "cluster_fixture.h"

namespace fairway::integration {
namespace {

bool terminal(JobState s) {
  return is_terminal(s);
}

TEST_F(Cluster, AJobRunsWritesItsOutputAndItsExitCodeIsRecorded) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto id =
      submit(wrap("echo hello from $FAIRWAY_JOB_ID on $SLURM_JOB_NODELIST cpus $FAIRWAY_CPUS; exit 3", 2));
  ASSERT_TRUE(id);
  auto v = wait_state(*id, terminal);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kFailed);
  ASSERT_TRUE(v->exit_code);
  EXPECT_EQ(*v->exit_code, 3);
  ASSERT_EQ(v->allocation.size(), 1u);
  EXPECT_EQ(v->allocation[0].node, "kb01");
  EXPECT_EQ(v->allocation[0].cores.size(), 2u);
  const std::string out = read_file(dir_ + "/fairway-" + std::to_string(id->value()) + ".out");
  EXPECT_NE(out.find("hello from " + std::to_string(id->value()) + " on kb01 cpus "), std::string::npos)
      << out;

  // A refused submission uses up no id: users read a gap as a lost job.
  auto refused = call(wrap("true", 100000));
  ASSERT_TRUE(refused);
  ASSERT_TRUE(std::holds_alternative<wire::ErrorReply>(*refused));
  auto ok = submit(wrap("true"));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->value(), id->value() + 1);
  auto done = wait_state(*ok, terminal);
  ASSERT_TRUE(done);
  EXPECT_EQ(done->state, JobState::kCompleted);
  EXPECT_EQ(done->exit_code.value_or(-1), 0);
}

TEST_F(Cluster, CancelKillsTheWholeProcessGroup) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto id = submit(wrap("sleep 300 & echo $! > child.pid; sleep 300"));
  ASSERT_TRUE(id);
  ASSERT_TRUE(wait_state(*id, [](JobState s) { return s == JobState::kRunning; }));
  ASSERT_TRUE(eventually([&] { return !read_file(dir_ + "/child.pid").empty(); }));
  const pid_t child = std::stoi(read_file(dir_ + "/child.pid"));
  ASSERT_EQ(kill(child, 0), 0);

  wire::JobControl c;
  c.action = wire::JobAction::kCancel;
  c.jobs = {*id};
  c.user = "root";
  auto r = call(c);
  ASSERT_TRUE(r);
  const auto& reply = std::get<wire::JobControlReply>(*r);
  ASSERT_EQ(reply.results.size(), 1u);
  EXPECT_TRUE(reply.results[0].ok) << reply.results[0].message;

  auto v = wait_state(*id, terminal);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCancelled);
  EXPECT_TRUE(eventually([&] { return kill(child, 0) != 0; }, 5000ms)) << "background child survived";
}

TEST_F(Cluster, AJobPastItsWalltimeIsKilledAsTimeout) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  // It ignores SIGTERM, so only the KILL after the 1 s grace ends it.
  auto id = submit(wrap("trap '' TERM; while true; do sleep 0.2; done", 1, Duration::seconds(2)));
  ASSERT_TRUE(id);
  auto v = wait_state(*id, terminal, 20000ms);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kTimeout);
  ASSERT_TRUE(v->start_time && v->end_time);
  EXPECT_GE((*v->end_time - *v->start_time).count(), 2);
}

TEST_F(Cluster, AJobOnTheHostIsBoundToItsCoresForReal) {
  start_coordinator();
  start_agent("host");  // host discovery: binding applied
  ASSERT_TRUE(wait_nodes_up(1));
  const auto ns = nodes();
  ASSERT_EQ(ns.size(), 1u);
  auto id = submit(wrap("grep Cpus_allowed_list /proc/self/status; nproc"));
  ASSERT_TRUE(id);
  auto v = wait_state(*id, terminal);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted);
  const std::string out = read_file(dir_ + "/fairway-" + std::to_string(id->value()) + ".out");
  // One core: exactly its SMT threads, not the whole machine.
  const std::string nproc = out.substr(out.rfind('\n', out.size() - 2) + 1);
  EXPECT_EQ(std::stoi(nproc), ns[0].threads_per_core) << out;
  EXPECT_NE(out.find("Cpus_allowed_list:"), std::string::npos) << out;
}

TEST_F(Cluster, ARestartedCoordinatorStillListsEveryAcceptedJob) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  std::vector<JobId> ids;
  auto running = submit(wrap("sleep 300", 28));
  ASSERT_TRUE(running);
  ids.push_back(*running);
  ASSERT_TRUE(wait_state(*running, [](JobState s) { return s == JobState::kRunning; }));
  auto done = submit(wrap("true", 1));  // waits behind the full node until we cancel nothing
  ASSERT_TRUE(done);
  ids.push_back(*done);
  auto held = wrap("true");
  held.spec.hold = true;
  auto held_id = submit(held);
  ASSERT_TRUE(held_id);
  ids.push_back(*held_id);

  coordinator_.stop(SIGKILL);  // a crash, not a clean stop
  start_coordinator();
  for (JobId id : ids) {
    auto v = wait_state(id, [](JobState) { return true; });
    ASSERT_TRUE(v) << "job " << id.value() << " lost across the restart";
  }
  EXPECT_EQ(job(*held_id)->state, JobState::kHeld);
  EXPECT_EQ(job(*done)->state, JobState::kPending);
  // The agent re-registers with its running job: it is adopted, not killed or run twice.
  ASSERT_TRUE(wait_nodes_up(1));
  auto v = job(*running);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kRunning);
  // A retried submit with the same token after the restart returns the same job.
  auto again = wrap("true");
  again.client_token = "t2";
  auto same = submit(again);
  ASSERT_TRUE(same);
  EXPECT_EQ(*same, *done);
}

}  // namespace
}  // namespace fairway::integration

namespace fairway::integration {
namespace {

TEST_F(Cluster, ADeepQueueIsListedInPages) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  for (int b = 0; b < 6; ++b) {
    wire::SubmitBatch batch;
    for (int i = 0; i < 1000; ++i) {
      auto r = wrap("true");
      r.spec.hold = true;
      batch.requests.push_back(r);
    }
    auto reply = call(batch, 10000ms);
    ASSERT_TRUE(reply) << reply.error().message;
    for (const auto& res : std::get<wire::SubmitBatchReply>(*reply).results)
      ASSERT_TRUE(res.job) << res.error;
  }
  wire::JobQuery q;
  q.limit = 2500;
  std::size_t seen = 0;
  JobId last;
  for (int page = 0; page < 10; ++page) {
    q.after = last;
    auto r = call(q, 10000ms);
    ASSERT_TRUE(r) << r.error().message;
    const auto& reply = std::get<wire::JobQueryReply>(*r);
    EXPECT_EQ(reply.total, 6000u);
    for (const auto& v : reply.jobs) {
      EXPECT_LT(last, v.id);
      last = v.id;
    }
    seen += reply.jobs.size();
    if (!reply.more) break;
  }
  EXPECT_EQ(seen, 6000u);
}

}  // namespace
}  // namespace fairway::integration

namespace fairway::integration {
namespace {

TEST_F(Cluster, ADrainedNodeTakesNoNewJobsEvenAfterARestartUntilResumed) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  wire::NodeControl drain{wire::NodeAction::kDrain, {"kb01"}, "bad DIMM", "root"};
  auto r = call(drain);
  ASSERT_TRUE(r);
  ASSERT_TRUE(std::get<wire::NodeControlReply>(*r).results.at(0).ok);
  // Only root (and the admin group) manages nodes, whatever name a request carries, and a
  // drain needs a reason.
  if (geteuid() == 0) {
    std::string out;
    EXPECT_EQ(run_cli_as("nobody", {"resume", "kb01"}, out), 1) << out;
    EXPECT_NE(out.find("only root and the admin group may drain or resume nodes, not 'nobody'"),
              std::string::npos)
        << out;
  }
  auto unknown = call(wire::NodeControl{wire::NodeAction::kDrain, {"nope"}, "x", "root"});
  ASSERT_TRUE(unknown);
  EXPECT_FALSE(std::get<wire::NodeControlReply>(*unknown).results.at(0).ok);

  auto id = submit(wrap("true"));
  ASSERT_TRUE(id);
  ASSERT_TRUE(wait_passes(2));  // passes that would have started it on a usable node
  EXPECT_EQ(job(*id)->state, JobState::kPending);
  auto ns = nodes();
  ASSERT_EQ(ns.size(), 1u);
  EXPECT_EQ(ns[0].state, "drained");
  EXPECT_EQ(ns[0].reason, "bad DIMM");

  coordinator_.stop(SIGKILL);
  start_coordinator();
  ASSERT_TRUE(eventually([&] {
    auto v = nodes();
    return v.size() == 1 && v[0].state == "drained";
  }));
  EXPECT_EQ(job(*id)->state, JobState::kPending);

  auto resumed = call(wire::NodeControl{wire::NodeAction::kResume, {"kb01"}, "", "root"});
  ASSERT_TRUE(resumed);
  ASSERT_TRUE(std::get<wire::NodeControlReply>(*resumed).results.at(0).ok);
  auto v = wait_state(*id, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted);
}

}  // namespace
}  // namespace fairway::integration

namespace fairway::integration {
namespace {

TEST_F(Cluster, AKillableJobIsStoppedForAMaintenanceAndRunsAgainAfterIt) {
  const auto now_s =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  write_config(
      "[[partitions]]\nname = \"batch\"\ndefault = true\n"
      "[[partitions]]\nname = \"killable\"\nkillable = true\n"
      "[[reservations]]\nname = \"outage\"\nstart = " +
      std::to_string(now_s + 4) + "\nduration = 4\nnodes = \"ALL\"\nflags = [\"maintenance\"]\n");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto r = wrap("echo run; sleep 60");
  r.spec.partition = "killable";
  auto id = submit(r);
  ASSERT_TRUE(id);
  ASSERT_TRUE(wait_state(*id, [](JobState s) { return s == JobState::kRunning; }));
  // At the window's start the job goes back to the queue and its processes are stopped.
  auto requeued = wait_state(
      *id, [](JobState s) { return s == JobState::kPending; }, 10000ms);
  ASSERT_TRUE(requeued);
  EXPECT_EQ(requeued->state, JobState::kPending);
  EXPECT_EQ(requeued->requeue_count, 1);
  // After the window it runs again: the output file shows two runs.
  ASSERT_TRUE(wait_state(
      *id, [](JobState s) { return s == JobState::kRunning; }, 15000ms));
  const std::string out_path = dir_ + "/fairway-" + std::to_string(id->value()) + ".out";
  EXPECT_TRUE(eventually(
      [&] {
        const std::string out = read_file(out_path);
        return out.find("run") != out.rfind("run");
      },
      5000ms))
      << read_file(out_path);
}

}  // namespace
}  // namespace fairway::integration
