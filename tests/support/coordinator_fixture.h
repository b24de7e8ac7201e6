// A lone CoordinatorService over a temporary store for the synchronous daemon tests: config
// text in, nodes registered and jobs reported by hand, frames decoded, restart on one store.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "coordinator/daemon/coordinator_service.h"
#include "shared/wire/codec.h"
#include "tests/support/test_authenticators.h"

namespace fairway::daemon::test_support {

class CoordinatorFixture : public ::testing::Test {
 protected:
  CoordinatorFixture() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fw-coordinator-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
  }
  ~CoordinatorFixture() override {
    service_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Who the service takes its callers to be (a fresh one at each reopen).
  virtual std::unique_ptr<ClientAuthenticator> authenticator() const {
    return std::make_unique<RootOnlyAuthenticator>();
  }

  // `text`, then a [coordinator] section naming the state dir followed by `coordinator`.
  void configure(const std::string& text, const std::string& coordinator = "") {
    auto config = parse_config(text + "[coordinator]\nstate_dir = \"" + dir_ + "\"\n" + coordinator, "test");
    ASSERT_TRUE(config) << config.error().message;
    config_ = *config;
  }
  // A crash and a restart on the same store: memory is gone, the lock is released.
  void reopen(const std::string& read_only_because = {}) {
    service_.reset();
    auto s = CoordinatorService::open(config_, t_, authenticator(), read_only_because, monotonic_);
    ASSERT_TRUE(s) << s.error().message;
    service_ = std::move(*s);
  }
  void open(const std::string& text, const std::string& coordinator = "") {
    configure(text, coordinator);
    if (!::testing::Test::HasFatalFailure()) reopen();
  }

  // Every frame the turn releases, decoded (launches and signals are kept as well).
  std::vector<wire::Message> turn_all(bool allow_pass = true) {
    std::vector<wire::Message> out;
    for (const Outgoing& o : service_->end_turn(t_, allow_pass)) {
      auto m = wire::decode(o.frame);
      EXPECT_TRUE(m) << "a frame the service sent does not decode";
      if (!m) continue;
      keep(o, *m);
      out.push_back(*m);
    }
    return out;
  }
  // The turn's last client reply (an empty ErrorReply when there is none).
  wire::Message turn(bool allow_pass = true) {
    wire::Message client = wire::ErrorReply{};
    for (const Outgoing& o : service_->end_turn(t_, allow_pass)) {
      auto m = wire::decode(o.frame);
      EXPECT_TRUE(m) << "a frame the service sent does not decode";
      if (!m) continue;
      keep(o, *m);
      if (o.channel == Channel::kClients) client = *m;
    }
    return client;
  }
  void send(const wire::Message& m, std::uint32_t uid = 0) {
    service_->on_client_frame("client", wire::encode(m), t_,
                              net::PeerCredentials{uid, uid == 0 ? 0u : 100u, 4242});
  }
  // Sends `m` as `uid` and returns the client reply.
  wire::Message ask(const wire::Message& m, std::uint32_t uid = 0, bool allow_pass = true) {
    send(m, uid);
    return turn(allow_pass);
  }
  // A frame from `node`'s own agent connection; every frame the turn releases.
  std::vector<wire::Message> from_agent(const wire::Message& m, const std::string& node = "n1") {
    service_->on_agent_frame(node, wire::encode(m), t_, node);
    return turn_all();
  }
  // The agent of `topology`'s node registers, still running `running`.
  void register_node(const NodeTopology& topology, std::vector<wire::RunningJob> running = {},
                     bool allow_pass = true) {
    const std::string node = topology.name;
    wire::AgentRegister reg{node, "test", topology, std::move(running), ""};
    service_->on_agent_frame(node, wire::encode(reg), t_, node);
    (void)turn(allow_pass);
  }
  // `node`'s agent registers with one socket of `cores` cores.
  void register_node(const std::string& node, std::int32_t cores, std::vector<wire::RunningJob> running = {},
                     bool allow_pass = true) {
    register_node(NodeTopology::uniform(node, 1, cores), std::move(running), allow_pass);
  }
  // The jobs in `running` as an agent that launched them reports them at registration.
  std::vector<wire::RunningJob> as_running(const std::vector<JobId>& running, Time since,
                                           std::int32_t pid = 4242) {
    std::vector<wire::RunningJob> jobs;
    for (JobId id : running) {
      for (const wire::LaunchJob& l : launches_) {
        if (l.job == id) jobs.push_back({id, l.cores, l.gpus, since, pid});
      }
    }
    return jobs;
  }

  // A request to run `true` in /tmp on `cores` cores, with a token of its own.
  wire::SubmitRequest request(std::int32_t cores = 1) {
    wire::SubmitRequest r;
    r.client_token = "t" + std::to_string(++token_);
    r.spec.resources.cores = cores;
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    return r;
  }
  // The new job's id, or the refusal's message.
  std::variant<JobId, std::string> try_submit(const wire::SubmitRequest& r, std::uint32_t uid = 0) {
    const wire::Message m = ask(r, uid);
    if (const auto* ok = std::get_if<wire::SubmitReply>(&m)) return ok->job;
    if (const auto* no = std::get_if<wire::ErrorReply>(&m))
      return no->message.empty() ? "no reply" : no->message;
    return std::string("an unexpected reply");
  }
  JobId submit(const wire::SubmitRequest& r, std::uint32_t uid = 0) {
    auto id = try_submit(r, uid);
    if (const auto* why = std::get_if<std::string>(&id)) {
      ADD_FAILURE() << "submit refused: " << *why;
      return JobId(0);
    }
    return std::get<JobId>(id);
  }
  // `node`'s agent says `job` is now in `state` (a terminal one ended with `exit_code`).
  void report(JobId job, JobState state, std::int32_t exit_code = 0, const std::string& node = "n1") {
    wire::JobStatusUpdate u;
    u.node = node;
    u.seq = ++seq_;
    u.job = job;
    u.state = state;
    if (is_terminal(state)) u.exit_code = exit_code;
    u.time = t_;
    service_->on_agent_frame(node, wire::encode(u), t_, node);
    (void)turn();
  }
  // What `show job` says of `id` (finished or not).
  wire::JobView view(JobId id) {
    wire::JobQuery q;
    q.jobs = {id};
    q.include_finished = true;
    const wire::Message m = ask(q);
    const auto* r = std::get_if<wire::JobQueryReply>(&m);
    EXPECT_TRUE(r != nullptr && r->jobs.size() == 1);
    return r != nullptr && r->jobs.size() == 1 ? r->jobs[0] : wire::JobView{};
  }
  // Every frame of type T sent to an agent so far, with its node.
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
  // The fair-share usage of the account a (held) job of it is charged to.
  double usage_of(JobId held) const {
    const JobRecord* r = service_->scheduler().job(held);
    EXPECT_NE(r, nullptr);
    return r ? service_->scheduler().fair_share().account_usage(r->association, t_) : -1;
  }

  std::string dir_;
  Config config_;
  Time t_ = Time::from_seconds(1'700'000'000);
  std::optional<Time> monotonic_;  // the loop's clock at open, when a test moves it apart from t_
  std::unique_ptr<CoordinatorService> service_;
  std::vector<wire::LaunchJob> launches_;
  std::vector<JobId> signalled_;
  std::vector<std::pair<std::string, wire::Message>> to_agents_;  // node, frame
  int token_ = 0;
  std::uint64_t seq_ = 0;

 private:
  void keep(const Outgoing& o, const wire::Message& m) {
    if (o.channel != Channel::kClients) to_agents_.emplace_back(o.peer, m);
    if (const auto* l = std::get_if<wire::LaunchJob>(&m)) launches_.push_back(*l);
    if (const auto* s = std::get_if<wire::SignalJob>(&m)) signalled_.push_back(s->job);
  }
};

}  // namespace fairway::daemon::test_support
