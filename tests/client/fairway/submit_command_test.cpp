#include "client/fairway/submit_command.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "tests/client/temp_dir.h"

namespace fairway::cli {
namespace {

class Submit : public ::testing::Test {
 protected:
  testing::TempDir dir;
  std::ostringstream out, err;
  Output io{out, err};
  std::vector<wire::SubmitRequest> sent;
  int timeouts_left = 0;

  SubmitContext context() {
    return SubmitContext{"alice", dir.path(), {{"A", "1"}}, "tok-1", Time::from_seconds(1'800'000'000),
                         "",      "",         std::nullopt};
  }

  // Answers job 77 after `timeouts_left` timeouts.
  Transport transport() {
    return [this](const wire::Message& m) -> Result<wire::Message> {
      sent.push_back(std::get<wire::SubmitRequest>(m));
      if (timeouts_left > 0) {
        --timeouts_left;
        return make_error(ErrorCode::kIo, "no reply from the coordinator at x within 5 s");
      }
      return wire::SubmitReply{.job = JobId(77)};
    };
  }

  SubmitCommand command(const std::vector<std::string>& args) {
    auto c = parse_submit_command_line(args);
    EXPECT_TRUE(c.has_value()) << c.error().message;
    return c.value_or(SubmitCommand{});
  }
};

TEST_F(Submit, ScriptFromDiskIsSentAndReported) {
  const std::string script = dir.write("job.sh", "#!/bin/sh\n#SBATCH -n 3\nhostname\n");
  EXPECT_EQ(run_submit(command({script, "arg"}), context(), transport(), io), kExitOk);
  EXPECT_EQ(out.str(), "Submitted batch job 77\n");
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].spec.resources.cores, 3);
  EXPECT_EQ(sent[0].program.script, "#!/bin/sh\n#SBATCH -n 3\nhostname\n");
  EXPECT_EQ(sent[0].program.argv, std::vector<std::string>{"arg"});
  EXPECT_EQ(sent[0].client_token, "tok-1");
}

// sbatch -Q (the quiet conformance row): Slurm printed no id, --parsable or not.
TEST_F(Submit, QuietPrintsNoJobId) {
  EXPECT_EQ(run_submit(command({"-Q", "--parsable", "--wrap", "true"}), context(), transport(), io), kExitOk);
  EXPECT_EQ(out.str(), "");
  ASSERT_EQ(sent.size(), 1u);
  const std::string script = dir.write("q.sh", "#!/bin/sh\n#SBATCH --quiet\ntrue\n");
  EXPECT_EQ(run_submit(command({script}), context(), transport(), io), kExitOk);
  EXPECT_EQ(out.str(), "");
}

// --dependency=afterok:40_3: the CLI asks the coordinator for the task's own id (the array
// with its waiting tasks expanded) and sends that; a task the array lacks is refused.
TEST_F(Submit, AnArrayTaskInADependencyIsSentAsItsOwnId) {
  std::vector<wire::JobQuery> queries;
  const Transport t = [&](const wire::Message& m) -> Result<wire::Message> {
    if (const auto* q = std::get_if<wire::JobQuery>(&m)) {
      queries.push_back(*q);
      wire::JobQueryReply r;
      for (std::int32_t index = 0; index < 5; ++index) {
        wire::JobView v;
        v.id = JobId(41 + static_cast<std::uint64_t>(index));
        v.array_job = JobId(40);
        v.array_tasks = std::to_string(index);
        r.jobs.push_back(v);
      }
      return r;
    }
    sent.push_back(std::get<wire::SubmitRequest>(m));
    return wire::SubmitReply{.job = JobId(77)};
  };
  EXPECT_EQ(run_submit(command({"-d", "afterok:40_3:9", "--wrap", "true"}), context(), t, io), kExitOk)
      << err.str();
  ASSERT_EQ(queries.size(), 1u);
  EXPECT_EQ(queries[0].jobs, std::vector<JobId>{JobId(40)});
  EXPECT_TRUE(queries[0].expand_arrays);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].spec.dependencies.at(0).jobs, (std::vector<JobId>{JobId(9), JobId(44)}));

  EXPECT_EQ(run_submit(command({"-d", "afterok:40_7", "--wrap", "true"}), context(), t, io), kExitUsage);
  EXPECT_NE(err.str().find("--dependency: job 40_7 does not exist"), std::string::npos) << err.str();
  EXPECT_EQ(sent.size(), 1u);  // nothing submitted
}

// --test-only: the request says so, and the answer is the plan, not a job id.
TEST_F(Submit, TestOnlyPrintsWhenAndWhereItWouldStart) {
  wire::SubmitReply now_reply{.job = JobId(0)};
  now_reply.test_only = true;
  now_reply.estimated_start = Time::from_seconds(1'800'000'000);
  now_reply.partition = "batch";
  now_reply.nodes = {"n1", "n2"};
  now_reply.cores = 8;
  wire::SubmitReply never = now_reply;
  never.estimated_start.reset();
  never.nodes.clear();
  never.reason = "Resources";
  std::vector<wire::SubmitReply> replies = {now_reply, never};
  const Transport t = [&](const wire::Message& m) -> Result<wire::Message> {
    sent.push_back(std::get<wire::SubmitRequest>(m));
    wire::SubmitReply r = replies.front();
    replies.erase(replies.begin());
    return r;
  };
  const SubmitCommand cmd = command({"--test-only", "-n", "8", "--wrap", "true"});
  EXPECT_EQ(run_submit(cmd, context(), t, io), kExitOk);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_TRUE(sent[0].test_only);
  EXPECT_NE(out.str().find("Job to start at "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(" using 8 cores on nodes n1,n2 in partition batch\n"), std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("Submitted"), std::string::npos);
  out.str("");
  EXPECT_EQ(run_submit(cmd, context(), t, io), kExitOk);
  EXPECT_EQ(out.str(), "Job cannot be promised a start now in partition batch (reason: Resources)\n");
}

// --wait (here from a directive) polls until the job ends and exits as the job did.
TEST_F(Submit, WaitPollsUntilTheJobEndsAndExitsWithItsCode) {
  std::vector<JobState> states = {JobState::kPending, JobState::kRunning, JobState::kFailed};
  std::size_t polls = 0;
  const Transport t = [&](const wire::Message& m) -> Result<wire::Message> {
    if (std::holds_alternative<wire::SubmitRequest>(m)) return wire::SubmitReply{.job = JobId(78)};
    const auto& q = std::get<wire::JobQuery>(m);
    EXPECT_EQ(q.jobs, std::vector<JobId>{JobId(78)});
    EXPECT_TRUE(q.include_finished);
    if (polls == 1) {
      ++polls;
      return make_error(ErrorCode::kIo, "no reply");  // a coordinator restart is waited out
    }
    wire::JobQueryReply r;
    wire::JobView v;
    v.id = JobId(78);
    v.state = states[std::min(polls, states.size() - 1)];
    if (v.state == JobState::kFailed) v.exit_code = 3;
    r.jobs.push_back(v);
    ++polls;
    return r;
  };
  const std::string script = dir.write("w.sh", "#!/bin/sh\n#SBATCH --wait\nexit 3\n");
  EXPECT_EQ(run_submit(command({script}), context(), t, io), 3);
  EXPECT_EQ(out.str(), "Submitted batch job 78\n");
  EXPECT_EQ(err.str(), "fairway: job 78 ended FAILED (exit code 3)\n");
  EXPECT_GE(polls, 3u);

  // Direct: a completed job is 0, a timeout 1.
  for (const auto& [state, code] :
       {std::pair{JobState::kCompleted, kExitOk}, std::pair{JobState::kTimeout, kExitFailure}}) {
    const Transport done = [state](const wire::Message&) -> Result<wire::Message> {
      wire::JobQueryReply r;
      wire::JobView v;
      v.state = state;
      r.jobs.push_back(v);
      return r;
    };
    EXPECT_EQ(wait_for_job(JobId(1), done, io, std::chrono::milliseconds(1), std::chrono::milliseconds(1)),
              code);
  }
}

// --wait with --array waits for the last task and exits with the highest task's code.
TEST_F(Submit, WaitWithAnArrayWaitsForEveryTask) {
  std::size_t polls = 0;
  const Transport t = [&](const wire::Message& m) -> Result<wire::Message> {
    if (std::holds_alternative<wire::SubmitRequest>(m)) return wire::SubmitReply{.job = JobId(80)};
    const auto& q = std::get<wire::JobQuery>(m);
    EXPECT_TRUE(q.expand_arrays);
    wire::JobQueryReply r;
    const auto task = [&](std::uint64_t id, const std::string& index, JobState state,
                          std::optional<std::int32_t> code) {
      wire::JobView v;
      v.id = JobId(id);
      v.array_job = JobId(80);
      v.array_tasks = index;
      v.state = state;
      v.exit_code = code;
      r.jobs.push_back(v);
    };
    ++polls;
    // First a task still running and two not made yet, then all ended: 0 and 2 failed.
    task(81, "0", polls < 3 ? JobState::kRunning : JobState::kFailed,
         polls < 3 ? std::nullopt : std::optional(2));
    if (polls < 2) {
      task(80, "[1-2]", JobState::kPending, std::nullopt);
    } else {
      task(82, "1", JobState::kCompleted, 0);
      task(83, "2", polls < 3 ? JobState::kPending : JobState::kFailed,
           polls < 3 ? std::nullopt : std::optional(5));
    }
    return r;
  };
  EXPECT_EQ(run_submit(command({"--wait", "--array=0-2", "--wrap", "exit 2"}), context(), t, io), 5);
  EXPECT_EQ(polls, 3u);
  EXPECT_EQ(err.str(),
            "fairway: job 80_0 ended FAILED (exit code 2)\nfairway: job 80_2 ended FAILED (exit code 5)\n");
}

TEST_F(Submit, ParsableAndRetryWithTheSameToken) {
  timeouts_left = 1;
  EXPECT_EQ(run_submit(command({"--parsable", "--wrap", "true"}), context(), transport(), io), kExitOk);
  EXPECT_EQ(out.str(), "77\n");
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].client_token, sent[1].client_token);
}

TEST_F(Submit, GivesUpAfterOneRetry) {
  timeouts_left = 5;
  EXPECT_EQ(run_submit(command({"--wrap", "true"}), context(), transport(), io), kExitFailure);
  EXPECT_EQ(sent.size(), 2u);
  EXPECT_EQ(err.str(), "fairway: error: no reply from the coordinator at x within 5 s\n");
}

TEST_F(Submit, RefusalAndMissingScript) {
  Transport refuse = [](const wire::Message&) -> Result<wire::Message> {
    return wire::ErrorReply{ErrorCode::kInvalidArgument, "partition \"x\" does not exist"};
  };
  EXPECT_EQ(run_submit(command({"-p", "x", "--wrap", "true"}), context(), refuse, io), kExitFailure);
  EXPECT_EQ(err.str(), "fairway: error: submission refused: partition \"x\" does not exist\n");

  err.str("");
  const std::string missing = dir.path() + "/nope.sh";
  EXPECT_EQ(run_submit(command({missing}), context(), transport(), io), kExitUsage);
  EXPECT_EQ(err.str().rfind("fairway: error: cannot read job script \"" + missing + "\"", 0), 0u)
      << err.str();
  EXPECT_TRUE(sent.empty());
}

TEST_F(Submit, WarningsGoToStderr) {
  EXPECT_EQ(run_submit(command({"--tmp=1G", "--wrap", "true"}), context(), transport(), io), kExitOk);
  EXPECT_EQ(err.str(), "fairway: warning: --tmp=1G ignored: local disk is not scheduled\n");
}

TEST_F(Submit, JsonCarriesTheJobAndItsWarnings) {
  EXPECT_EQ(run_submit(command({"--json", "--tmp=1G", "--wrap", "true"}), context(), transport(), io),
            kExitOk);
  EXPECT_EQ(err.str(), "") << "warnings go into the JSON";
  EXPECT_EQ(out.str(),
            "{\n  \"job\": 77,\n  \"warnings\": [\n    \"--tmp=1G ignored: local disk is not scheduled\"\n  "
            "]\n}\n");
}

TEST(SubmitContextTest, TokensAreRandomHexAndContextIsComplete) {
  std::set<std::string> tokens;
  for (int i = 0; i < 8; ++i) {
    auto t = random_client_token();
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->size(), 32u);
    EXPECT_EQ(t->find_first_not_of("0123456789abcdef"), std::string::npos);
    tokens.insert(*t);
  }
  EXPECT_EQ(tokens.size(), 8u);
  auto ctx = current_submit_context();
  ASSERT_TRUE(ctx.has_value()) << ctx.error().message;
  // No user name: the coordinator fills it in from the proven identity (no NSS lookup).
  EXPECT_TRUE(ctx->user.empty());
  EXPECT_EQ(ctx->cwd.front(), '/');
  EXPECT_FALSE(ctx->env.empty());
}

}  // namespace
}  // namespace fairway::cli
