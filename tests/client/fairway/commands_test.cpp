#include "client/fairway/commands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "tests/client/cli_test_views.h"

namespace fairway::cli {
namespace {

// Records every request and answers with a scripted reply.
struct FakeCoordinator {
  std::vector<wire::Message> requests;
  std::function<Result<wire::Message>(const wire::Message&)> answer;

  Transport transport() {
    return [this](const wire::Message& m) {
      requests.push_back(m);
      return answer(m);
    };
  }
};

class Commands : public ::testing::Test {
 protected:
  void SetUp() override { testing::use_utc(); }
  std::ostringstream out, err;
  Output io{out, err};
  FakeCoordinator fake;
};

TEST_F(Commands, QueueSendsFiltersAndPrintsTable) {
  fake.answer = [](const wire::Message&) { return testing::queue_reply(); };
  QueueOptions o;
  o.user = "alice";
  o.partition = "gpu";
  o.states = "PD,r,held";
  o.jobs = "101,102";
  o.all = true;
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitOk);
  ASSERT_EQ(fake.requests.size(), 1u);
  const auto& q = std::get<wire::JobQuery>(fake.requests[0]);
  EXPECT_EQ(q.user, "alice");
  EXPECT_EQ(q.partition, "gpu");
  EXPECT_EQ(q.states, (std::vector<JobState>{JobState::kPending, JobState::kRunning, JobState::kHeld}));
  EXPECT_EQ(q.jobs, (std::vector<JobId>{JobId(101), JobId(102)}));
  EXPECT_TRUE(q.include_finished);
  EXPECT_EQ(out.str().rfind("JOBID  PARTITION", 0), 0u);
  EXPECT_EQ(err.str(), "");
}

TEST_F(Commands, QueueGathersEveryPage) {
  // Three pages of two jobs: the CLI asks again after the last id until `more` is false.
  fake.answer = [](const wire::Message& m) -> Result<wire::Message> {
    const auto& q = std::get<wire::JobQuery>(m);
    wire::JobQueryReply r;
    r.total = 6;
    for (std::uint64_t id = q.after.value() + 1; id <= q.after.value() + 2; ++id) {
      wire::JobView v;
      v.id = JobId(id);
      v.name = "j" + std::to_string(id);
      r.jobs.push_back(v);
    }
    r.more = r.jobs.back().id < JobId(6);
    return r;
  };
  QueueOptions o;
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitOk);
  ASSERT_EQ(fake.requests.size(), 3u);
  EXPECT_EQ(std::get<wire::JobQuery>(fake.requests[2]).after, JobId(4));
  for (int id = 1; id <= 6; ++id) EXPECT_NE(out.str().find("j" + std::to_string(id)), std::string::npos);
}

// squeue -A, -n, -w: kept to the jobs of those accounts, names and nodes.
TEST_F(Commands, QueueKeepsTheAccountsNamesAndNodesAsked) {
  fake.answer = [](const wire::Message&) -> Result<wire::Message> {
    wire::JobQueryReply r;
    const auto job = [&](std::uint64_t id, const std::string& account, const std::string& name,
                         const std::string& node) {
      wire::JobView v;
      v.id = JobId(id);
      v.account = account;
      v.name = name;
      if (!node.empty()) v.allocation = {{node, {0}, {}}};
      r.jobs.push_back(v);
    };
    job(1, "physics", "sim", "cn01");
    job(2, "physics", "post", "cn02");
    job(3, "chem", "sim", "cn03");
    job(4, "physics", "sim", "");
    return r;
  };
  const auto ids = [&](QueueOptions o) {
    out.str("");
    o.format = "%i";
    o.noheader = true;
    EXPECT_EQ(run_queue(o, fake.transport(), io), kExitOk) << err.str();
    return out.str();
  };
  QueueOptions o;
  o.accounts = "physics";
  EXPECT_EQ(ids(o), "1\n2\n4\n");
  o.names = "sim,other";
  EXPECT_EQ(ids(o), "1\n4\n");
  o.nodes = "cn[01-02]";
  EXPECT_EQ(ids(o), "1\n");
  QueueOptions bad;
  bad.nodes = "cn[02-01]";
  EXPECT_EQ(run_queue(bad, fake.transport(), io), kExitUsage);
  EXPECT_NE(err.str().find("--nodelist"), std::string::npos) << err.str();
}

// squeue's rules, checked against Slurm 22.05: a job named by -j that has ended is left out
// unless -t asks for it; one id that the coordinator does not know is Slurm's error.
TEST_F(Commands, SqueueRulesLeaveEndedJobsOutAndNameAnUnknownId) {
  fake.answer = [](const wire::Message& m) -> Result<wire::Message> {
    const auto& q = std::get<wire::JobQuery>(m);
    wire::JobQueryReply r;
    for (JobId id : q.jobs) {
      if (id.value() > 2) continue;  // unknown
      wire::JobView v;
      v.id = id;
      v.state = id.value() == 1 ? JobState::kCompleted : JobState::kRunning;
      r.jobs.push_back(v);
    }
    return r;
  };
  QueueOptions o;
  o.squeue_rules = true;
  o.format = "%i %t";
  o.noheader = true;
  o.jobs = "1,2";
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitOk) << err.str();
  EXPECT_EQ(out.str(), "2 R\n");
  out.str("");
  o.states = "all";
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitOk) << err.str();
  EXPECT_EQ(out.str(), "2 R\n1 CD\n");  // squeue's order: running before completed
  out.str("");
  o.states.clear();
  o.jobs = "1";
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitOk) << err.str();
  EXPECT_EQ(out.str(), "");
  o.jobs = "7";
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitFailure);
  EXPECT_EQ(err.str(), "slurm_load_jobs error: Invalid job id specified\n");
  err.str("");
  o.jobs = "7,8";  // several ids: Slurm lists what it has, nothing here
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitOk);
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(run_show_job("7", JobDetailLayout::kScontrol, fake.transport(), io), kExitFailure);
  EXPECT_EQ(err.str(), "slurm_load_jobs error: Invalid job id specified\n");
}

// scancel -i: each job named and asked for, only the yeses cancelled; a job that is not
// there is scancel's error, and nothing is cancelled.
TEST_F(Commands, InteractiveCancelAsksForEachJob) {
  fake.answer = [](const wire::Message& m) -> Result<wire::Message> {
    if (const auto* q = std::get_if<wire::JobQuery>(&m)) {
      wire::JobQueryReply r;
      for (JobId id : q->jobs) {
        if (id.value() > 20) continue;
        wire::JobView v;
        v.id = id;
        v.name = "job" + std::to_string(id.value());
        v.partition = "main";
        v.state = JobState::kRunning;
        r.jobs.push_back(v);
      }
      return r;
    }
    wire::JobControlReply r;
    for (JobId id : std::get<wire::JobControl>(m).jobs)
      r.results.push_back(wire::control_result(id, ok_status()));
    return r;
  };
  std::istringstream answers("y\nn\nyes\n");
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"11,12,13"}, "alice", fake.transport(), io, {}, false,
                            std::nullopt, true, &answers),
            kExitOk);
  EXPECT_EQ(
      out.str(),
      "Cancel job_id=11 name=job11 partition=main [y/n]? Cancel job_id=12 name=job12 partition=main [y/n]? "
      "Cancel job_id=13 name=job13 partition=main [y/n]? ");
  ASSERT_EQ(fake.requests.size(), 2u);
  EXPECT_EQ(std::get<wire::JobControl>(fake.requests[1]).jobs, (std::vector<JobId>{JobId(11), JobId(13)}));
  fake.requests.clear();
  std::istringstream no("n\n");
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"11"}, "alice", fake.transport(), io, {}, false,
                            std::nullopt, true, &no),
            kExitOk);
  EXPECT_EQ(fake.requests.size(), 1u) << "nothing to cancel: only the question";
  fake.requests.clear();
  std::istringstream any("y\n");
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"11,99"}, "alice", fake.transport(), io, {}, false,
                            std::nullopt, true, &any),
            kExitFailure);
  EXPECT_NE(err.str().find("Kill job error on job id 99: Invalid job id specified"), std::string::npos)
      << err.str();
  EXPECT_EQ(fake.requests.size(), 1u) << "no cancel sent";
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"42_7"}, "alice", fake.transport(), io, {}, false,
                            std::nullopt, true, &any),
            kExitUsage);
}

// scancel's way: a job gone (unknown, or already ended) is no error; another user's is.
TEST_F(Commands, JobControlCanKeepQuietAboutJobsThatAreGone) {
  fake.answer = [](const wire::Message& m) {
    const auto& c = std::get<wire::JobControl>(m);
    wire::JobControlReply r;
    r.results = {
        wire::control_result(c.jobs.at(0), make_error(ErrorCode::kNotFound, "job 11 does not exist")),
        wire::control_result(c.jobs.at(1),
                             make_error(ErrorCode::kFailedPrecondition, "job 12 has already ended")),
        wire::control_result(c.jobs.at(2), ok_status())};
    return r;
  };
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"11,12,13"}, "alice", fake.transport(), io, {}, false,
                            std::nullopt, true),
            kExitOk);
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"11,12,13"}, "alice", fake.transport(), io),
            kExitFailure);
  EXPECT_EQ(err.str(),
            "fairway: error: cancel job 11: job 11 does not exist\n"
            "fairway: error: cancel job 12: job 12 has already ended\n");
  err.str("");
  fake.answer = [](const wire::Message& m) {
    wire::JobControlReply r;
    r.results = {wire::control_result(
        std::get<wire::JobControl>(m).jobs.at(0),
        make_error(ErrorCode::kPermissionDenied, "job 14 belongs to 'bob', not 'alice'"))};
    return r;
  };
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"14"}, "alice", fake.transport(), io, {}, false,
                            std::nullopt, true),
            kExitFailure);
  EXPECT_NE(err.str().find("belongs to 'bob'"), std::string::npos);
}

// scontrol show job with no id: every job the coordinator holds, in scontrol's layout;
// fairway's own layout still needs an id.
TEST_F(Commands, ShowJobWithoutAnIdListsEveryJobInScontrolsLayout) {
  fake.answer = [](const wire::Message&) { return testing::queue_reply(); };
  EXPECT_EQ(run_show_job("", JobDetailLayout::kScontrol, fake.transport(), io), kExitOk) << err.str();
  const auto jobs = testing::queue_reply().jobs;
  ASSERT_FALSE(jobs.empty());
  for (const auto& j : jobs)
    EXPECT_NE(out.str().find("JobId=" + std::to_string(j.id.value()) + " "), std::string::npos);
  EXPECT_TRUE(std::get<wire::JobQuery>(fake.requests.at(0)).jobs.empty());
  EXPECT_EQ(run_show_job("", JobDetailLayout::kFairway, fake.transport(), io), kExitUsage);
}

// squeue -l: the listing's time first, as ctime writes it, then the long layout.
TEST_F(Commands, QueueLongStartsWithTheTime) {
  fake.answer = [](const wire::Message&) { return testing::queue_reply(); };
  QueueOptions o;
  o.long_format = true;
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitOk);
  const std::string text = out.str();
  const std::string first = text.substr(0, text.find('\n'));
  EXPECT_EQ(first.size(), 24u) << first;  // "Thu Nov 26 05:11:13 2026"
  EXPECT_NE(text.find("\n             JOBID PARTITION     NAME     USER    STATE"), std::string::npos)
      << text;
  out.str("");
  o.noheader = true;
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitOk);
  EXPECT_EQ(out.str().find("JOBID"), std::string::npos);
  EXPECT_FALSE(out.str().starts_with(first)) << "no time line without the header: " << out.str();
}

TEST_F(Commands, QueueJson) {
  fake.answer = [](const wire::Message&) { return testing::queue_reply(); };
  QueueOptions o;
  o.json = true;
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitOk);
  EXPECT_EQ(out.str().rfind("{", 0), 0u);
  EXPECT_NE(out.str().find("\"state_code\": \"PD\""), std::string::npos);
}

TEST_F(Commands, BadFiltersAreUsageErrorsAndSendNothing) {
  fake.answer = [](const wire::Message&) { return testing::queue_reply(); };
  QueueOptions o;
  o.states = "PD,XX";
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitUsage);
  EXPECT_EQ(err.str(),
            "fairway: error: --states: \"XX\" is not a job state (use PD, R, CD, ... or "
            "pending, running, ...)\n");
  o.states.clear();
  o.jobs = "12,abc";
  EXPECT_EQ(run_queue(o, fake.transport(), io), kExitUsage);
  EXPECT_NE(err.str().find("--jobs: job id \"abc\" is not a job number"), std::string::npos);
  EXPECT_TRUE(fake.requests.empty());
}

TEST_F(Commands, CoordinatorErrorsAndUnreachable) {
  fake.answer = [](const wire::Message&) -> Result<wire::Message> {
    return wire::ErrorReply{ErrorCode::kResourceExhausted, "rate limit: slow down"};
  };
  EXPECT_EQ(run_nodes({}, false, false, false, fake.transport(), io), kExitFailure);
  EXPECT_EQ(err.str(), "fairway: error: coordinator: rate limit: slow down\n");

  err.str("");
  fake.answer = [](const wire::Message&) -> Result<wire::Message> {
    return make_error(ErrorCode::kIo, "no reply from the coordinator at ipc:///x within 5 s");
  };
  EXPECT_EQ(run_show_job("5", JobDetailLayout::kFairway, fake.transport(), io), kExitFailure);
  EXPECT_EQ(err.str(), "fairway: error: no reply from the coordinator at ipc:///x within 5 s\n");

  err.str("");
  fake.answer = [](const wire::Message&) -> Result<wire::Message> { return wire::Ack{1}; };
  EXPECT_EQ(run_nodes({}, false, false, false, fake.transport(), io), kExitFailure);
  EXPECT_EQ(err.str(), "fairway: error: unexpected Ack in reply to NodeQuery\n");
}

TEST_F(Commands, ShowJobAsksIncludingFinished) {
  fake.answer = [](const wire::Message&) {
    return wire::JobQueryReply{Time::from_seconds(testing::kEpoch), {testing::failed_job()}};
  };
  EXPECT_EQ(run_show_job("99", JobDetailLayout::kFairway, fake.transport(), io), kExitOk);
  const auto& q = std::get<wire::JobQuery>(fake.requests.at(0));
  EXPECT_EQ(q.jobs, std::vector<JobId>{JobId(99)});
  EXPECT_TRUE(q.include_finished);
  EXPECT_NE(out.str().find("ExitCode: 139"), std::string::npos);

  fake.answer = [](const wire::Message&) { return wire::JobQueryReply{}; };
  EXPECT_EQ(run_show_job("7", JobDetailLayout::kJson, fake.transport(), io), kExitFailure);
  EXPECT_EQ(err.str(), "fairway: error: job 7 not found\n");
  EXPECT_EQ(run_show_job("x7", JobDetailLayout::kJson, fake.transport(), io), kExitUsage);
}

TEST_F(Commands, ShowNodeAndNodes) {
  fake.answer = [](const wire::Message&) { return wire::NodeQueryReply{{testing::gpu_node()}}; };
  EXPECT_EQ(run_show_node("gpu-01", false, false, fake.transport(), io), kExitOk);
  EXPECT_EQ(std::get<wire::NodeQuery>(fake.requests.at(0)).nodes, std::vector<std::string>{"gpu-01"});
  EXPECT_NE(out.str().find("NodeName: gpu-01"), std::string::npos);
  out.str("");
  EXPECT_EQ(run_nodes({}, true, false, false, fake.transport(), io), kExitOk);
  EXPECT_TRUE(std::get<wire::NodeQuery>(fake.requests.at(1)).nodes.empty());
  EXPECT_NE(out.str().find("\"nodes\""), std::string::npos);

  fake.answer = [](const wire::Message&) { return wire::NodeQueryReply{}; };
  EXPECT_EQ(run_show_node("nope", false, false, fake.transport(), io), kExitFailure);
  EXPECT_EQ(err.str(), "fairway: error: node nope not found\n");
}

TEST_F(Commands, JobControlReportsEachFailure) {
  fake.answer = [](const wire::Message& m) {
    const auto& c = std::get<wire::JobControl>(m);
    wire::JobControlReply r;
    for (JobId id : c.jobs) {
      const bool ok = id.value() != 12;
      r.results.push_back({id, ok, ok ? "" : "job 12 belongs to bob"});
    }
    return r;
  };
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"11,12", "13"}, "alice", fake.transport(), io),
            kExitFailure);
  const auto& c = std::get<wire::JobControl>(fake.requests.at(0));
  EXPECT_EQ(c.action, wire::JobAction::kCancel);
  EXPECT_EQ(c.user, "alice");
  EXPECT_EQ(c.jobs, (std::vector<JobId>{JobId(11), JobId(12), JobId(13)}));
  EXPECT_EQ(err.str(), "fairway: error: cancel job 12: job 12 belongs to bob\n");

  err.str("");
  EXPECT_EQ(run_job_control(wire::JobAction::kHold, {"11"}, "alice", fake.transport(), io), kExitOk);
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(run_job_control(wire::JobAction::kRelease, {"0"}, "alice", fake.transport(), io), kExitUsage);
  EXPECT_EQ(fake.requests.size(), 2u);
}

TEST_F(Commands, JobControlJsonListsEveryResult) {
  fake.answer = [](const wire::Message& m) {
    wire::JobControlReply r;
    for (JobId id : std::get<wire::JobControl>(m).jobs)
      r.results.push_back({id, id.value() != 12, id.value() == 12 ? "no" : ""});
    return r;
  };
  EXPECT_EQ(run_job_control(wire::JobAction::kHold, {"11,12"}, "alice", fake.transport(), io, {}, true),
            kExitFailure);
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(
      out.str(),
      "{\n  \"results\": [\n    {\n      \"job\": 11,\n      \"ok\": true,\n      \"message\": \"\"\n    },\n"
      "    {\n      \"job\": 12,\n      \"ok\": false,\n      \"message\": \"no\"\n    }\n  ]\n}\n");
}

TEST_F(Commands, CancelSignalSendsASignalAction) {
  fake.answer = [](const wire::Message& m) {
    wire::JobControlReply r;
    for (JobId id : std::get<wire::JobControl>(m).jobs) r.results.push_back({id, true, ""});
    return r;
  };
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"5"}, "alice", fake.transport(), io, {}, false,
                            SignalRequest{10, true}),
            kExitOk);
  const auto& c = std::get<wire::JobControl>(fake.requests.at(0));
  EXPECT_EQ(c.action, wire::JobAction::kSignal);
  EXPECT_EQ(c.signal, 10);
  EXPECT_TRUE(c.batch_only);
}

TEST_F(Commands, CancelWithFiltersActsOnTheJobsTheyMatch) {
  fake.answer = [](const wire::Message& m) -> Result<wire::Message> {
    if (const auto* q = std::get_if<wire::JobQuery>(&m)) {
      wire::JobQueryReply r;
      for (std::uint64_t id : {21, 22, 23}) {
        wire::JobView v;
        v.id = JobId(id);
        v.user = "alice";
        v.name = id == 22 ? "other" : "sweep";
        v.account = "chem";
        if (q->jobs.empty() || std::find(q->jobs.begin(), q->jobs.end(), v.id) != q->jobs.end())
          r.jobs.push_back(v);
      }
      return r;
    }
    wire::JobControlReply r;
    for (JobId id : std::get<wire::JobControl>(m).jobs) r.results.push_back({id, true, ""});
    return r;
  };
  JobFilter f;
  f.user = "alice";
  f.states = "PD";
  f.name = "sweep";
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {}, "alice", fake.transport(), io, f), kExitOk)
      << err.str();
  ASSERT_EQ(fake.requests.size(), 2u);
  const auto& q = std::get<wire::JobQuery>(fake.requests[0]);
  EXPECT_EQ(q.user, "alice");
  EXPECT_EQ(q.states, std::vector<JobState>{JobState::kPending});
  EXPECT_EQ(std::get<wire::JobControl>(fake.requests[1]).jobs, (std::vector<JobId>{JobId(21), JobId(23)}));

  // Ids and filters together: only the ids the filters also match.
  fake.requests.clear();
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"22,23"}, "alice", fake.transport(), io, f), kExitOk);
  EXPECT_EQ(std::get<wire::JobControl>(fake.requests.at(1)).jobs, std::vector<JobId>{JobId(23)});

  // Nothing matched: nothing to cancel, and that is not an error (scancel).
  fake.requests.clear();
  f.account = "physics";
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {}, "alice", fake.transport(), io, f), kExitOk);
  EXPECT_EQ(fake.requests.size(), 1u);

  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {}, "alice", fake.transport(), io), kExitUsage);
  EXPECT_NE(err.str().find("or a filter (-u, -t, -p, -n, -A)"), std::string::npos) << err.str();
  f.states = "ZZ";
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {}, "alice", fake.transport(), io, f), kExitUsage);
}

// A filter that matches an array's waiting line acts on the array as a whole, not on each
// task again; single tasks and arrays are sent as scancel names them.
TEST_F(Commands, CancelActsOnWholeArraysAndSingleTasks) {
  fake.answer = [](const wire::Message& m) -> Result<wire::Message> {
    if (std::holds_alternative<wire::JobQuery>(m)) {
      wire::JobQueryReply r;
      const auto view = [&](std::uint64_t id, std::uint64_t array, std::string tasks) {
        wire::JobView v;
        v.id = JobId(id);
        v.user = "alice";
        v.array_job = JobId(array);
        v.array_tasks = std::move(tasks);
        r.jobs.push_back(v);
      };
      view(40, 40, "[2-9]");  // array 40's waiting line
      view(41, 40, "0");      // its running tasks
      view(42, 40, "1");
      view(60, 0, "");    // a plain job
      view(71, 70, "0");  // a task of an array with nothing waiting
      return r;
    }
    wire::JobControlReply r;
    const auto& c = std::get<wire::JobControl>(m);
    for (JobId id : c.jobs) r.results.push_back({id, true, ""});
    for (JobId id : c.task_arrays) r.results.push_back({id, true, ""});
    return r;
  };
  JobFilter f;
  f.user = "alice";
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {}, "alice", fake.transport(), io, f), kExitOk)
      << err.str();
  EXPECT_EQ(std::get<wire::JobControl>(fake.requests.at(1)).jobs,
            (std::vector<JobId>{JobId(40), JobId(60), JobId(71)}));

  fake.requests.clear();
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"40_3,40_[5-6]", "60"}, "alice", fake.transport(), io),
            kExitOk)
      << err.str();
  const auto& c = std::get<wire::JobControl>(fake.requests.at(0));
  EXPECT_EQ(c.jobs, std::vector<JobId>{JobId(60)});
  EXPECT_EQ(c.task_arrays, (std::vector<JobId>{JobId(40), JobId(40), JobId(40)}));
  EXPECT_EQ(c.task_indices, (std::vector<std::int32_t>{3, 5, 6}));
  EXPECT_EQ(run_job_control(wire::JobAction::kCancel, {"40_x"}, "alice", fake.transport(), io), kExitUsage);
  EXPECT_NE(err.str().find("job id \"40_x\": the tasks after '_' are not task indices"), std::string::npos)
      << err.str();
}

TEST_F(Commands, ParseHelpers) {
  EXPECT_EQ(parse_job_ids({"1,2", "3"})->size(), 3u);
  EXPECT_EQ(parse_job_ids({"1,,2"}).error().message, "job id \"\" is not a job number");
  EXPECT_EQ(parse_job_ids({"-4"}).error().message, "job id \"-4\" is not a job number");
  EXPECT_EQ(parse_states("CD,node_fail,BL")->size(), 3u);
  EXPECT_EQ(parse_states("cancelled")->at(0), JobState::kCancelled);
  EXPECT_FALSE(parse_states("").has_value());
}

}  // namespace
}  // namespace fairway::cli
