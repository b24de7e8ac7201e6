// Multi-node jobs and steps at the coordinator, synchronously: every node of a job but its
// first gets an extern-only launch and keeps it across a re-registration until the job
// stops; a step runs only for the job's owner (or root), as one LaunchStep per node; what
// a client may not ask for is refused naming the field.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <unistd.h>

#include "coordinator/daemon/coordinator_service.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

// uid 0 root, 1001 alice, 1002 bob, 1003 ops (an admin who is not root).
class Users final : public ClientAuthenticator {
 public:
  Result<Caller> from_kernel(const net::PeerCredentials& p) override {
    switch (p.uid) {
      case 0: return Caller{0, 0, "root", true};
      case 1001: return Caller{1001, 100, "alice", false};
      case 1002: return Caller{1002, 100, "bob", false};
      case 1003: return Caller{1003, 100, "ops", true};
      default: return make_error(ErrorCode::kPermissionDenied, "unknown uid");
    }
  }
  Result<Caller> from_munge(std::string_view, std::string_view) override {
    return make_error(ErrorCode::kPermissionDenied, "no munge here");
  }
};

class JobStepService : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fw-steps-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    auto config = parse_config("[[nodes]]\nnames = \"n[1-2]\"\nsockets = 1\ncores_per_socket = 4\n"
                               "[coordinator]\nstate_dir = \"" + dir_ + "\"\n", "test");
    ASSERT_TRUE(config) << config.error().message;
    auto s = CoordinatorService::open(*config, t_, std::make_unique<Users>());
    ASSERT_TRUE(s) << s.error().message;
    service_ = std::move(*s);
    for (const char* n : {"n1", "n2"}) register_node(n, {});
  }
  void TearDown() override {
    service_.reset();
    fs::remove_all(dir_);
  }
  void register_node(const std::string& node, std::vector<wire::RunningJob> running) {
    wire::AgentRegister reg{node, "test", NodeTopology::uniform(node, 1, 4), std::move(running), ""};
    service_->on_agent_frame(node, wire::encode(reg), t_, node);
    (void)turn();
  }
  // One turn's frames: the client's reply; what went to agents, by node.
  wire::Message turn() {
    wire::Message client = wire::ErrorReply{};
    for (const Outgoing& o : service_->end_turn(t_)) {
      auto m = wire::decode(o.frame);
      EXPECT_TRUE(m);
      if (o.channel == Channel::kClients) {
        client = *m;
      } else {
        to_agents_.emplace_back(o.peer, *m);
      }
    }
    return client;
  }
  wire::Message ask(const wire::Message& m, std::uint32_t uid) {
    service_->on_client_frame("client", wire::encode(m), t_, net::PeerCredentials{uid, 100, 4242});
    return turn();
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
    return wire::StepRequest{job, {"hostname"}, {{"HOME", "/home/alice"}}, "/home/alice", 0, 0,
                             "tcp://10.0.0.9:41000", "0123456789abcdef0123456789abcdef"};
  }
  template <typename T>
  std::vector<std::pair<std::string, T>> sent() const {
    std::vector<std::pair<std::string, T>> out;
    for (const auto& [node, m] : to_agents_) {
      if (const auto* x = std::get_if<T>(&m)) out.emplace_back(node, *x);
    }
    return out;
  }
  static std::string error_of(const wire::Message& m) {
    const auto* e = std::get_if<wire::ErrorReply>(&m);
    return e ? e->message : "";
  }

  std::string dir_;
  Time t_ = Time::from_seconds(1'700'000'000);
  std::unique_ptr<CoordinatorService> service_;
  std::vector<std::pair<std::string, wire::Message>> to_agents_;
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
  register_node(member, {{id, launches[1].second.cores, {}, t_, 4242}});
  EXPECT_TRUE(sent<wire::SignalJob>().empty());

  // The job ends on its first node: the other is released.
  wire::JobStatusUpdate u{launches[0].first, 1, id, JobState::kCompleted, 0, std::nullopt, t_, "", std::nullopt, std::nullopt};
  service_->on_agent_frame(launches[0].first, wire::encode(u), t_, launches[0].first);
  (void)turn();
  const auto signals = sent<wire::SignalJob>();
  ASSERT_EQ(signals.size(), 1u);
  EXPECT_EQ(signals[0].first, member);
  EXPECT_EQ(signals[0].second.job, id);
  EXPECT_EQ(signals[0].second.signal, SIGKILL);
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
  EXPECT_NE(error_of(ask(bad, 1001)).find("asks for 3 nodes, job " + std::to_string(id.value()) + " has 2"),
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
      wire::JobStatusUpdate u{node, 7 + id.value(), id, JobState::kCancelled, std::nullopt, SIGTERM, t_, "", std::nullopt, std::nullopt};
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

}  // namespace
}  // namespace fairway::daemon
