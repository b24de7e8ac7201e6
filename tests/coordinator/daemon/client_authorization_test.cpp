// CoordinatorService's front door, synchronously: who asks comes from the transport or a
// credential (here a fake authenticator), never from the request; users act on their own
// jobs, admins on all. No sockets, no clock: frames in, frames out.
#include <gtest/gtest.h>

#include <map>

#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon {
namespace {

// uid 1001 alice, 1002 bob, 1003 ops (admin); MUNGE credentials "ok:UID" or refused.
class FakeAuthenticator final : public ClientAuthenticator {
 public:
  Result<Caller> from_kernel(const net::PeerCredentials& p) override { return caller(p.uid); }
  Result<Caller> from_munge(std::string_view credential, std::string_view) override {
    if (!credential.starts_with("ok:")) {
      return make_error(ErrorCode::kPermissionDenied, "MUNGE credential replayed");
    }
    return caller(static_cast<std::uint32_t>(std::stoul(std::string(credential.substr(3)))));
  }

 private:
  static Result<Caller> caller(std::uint32_t uid) {
    static const std::map<std::uint32_t, std::pair<std::string, bool>> users = {
        {1001, {"alice", false}}, {1002, {"bob", false}}, {1003, {"ops", true}}};
    auto it = users.find(uid);
    if (it == users.end()) return make_error(ErrorCode::kPermissionDenied, "unknown uid");
    return Caller{uid, 100, it->second.first, it->second.second};
  }
};

class ClientAuthorization : public test_support::CoordinatorFixture {
 protected:
  std::unique_ptr<ClientAuthenticator> authenticator() const override {
    return std::make_unique<FakeAuthenticator>();
  }
  void SetUp() override { open_service(""); }
  // One 4-core node n1 and the test's own config text (after it), and its own
  // [coordinator] keys.
  void open_service(const std::string& more_config, const std::string& coordinator_keys = "") {
    open("[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n" + more_config, coordinator_keys);
  }

  // Sends `m` as the local process of `uid` and returns the reply.
  wire::Message ask(const wire::Message& m, std::optional<std::uint32_t> uid) {
    std::optional<net::PeerCredentials> kernel;
    if (uid) kernel = net::PeerCredentials{*uid, 100, 4242};
    service_->on_client_frame("client", wire::encode(m), t_, kernel);
    return reply();
  }
  wire::Message ask_munge(const wire::Message& m, const std::string& credential) {
    service_->on_client_frame("client", wire::encode(wire::AuthenticatedRequest{credential, wire::encode(m)}),
                              t_);
    return reply();
  }
  wire::Message reply() {
    for (const Outgoing& o : service_->end_turn(t_, false)) {
      if (o.channel == Channel::kClients) {
        auto m = wire::decode(o.frame);
        EXPECT_TRUE(m);
        return *m;
      }
    }
    ADD_FAILURE() << "no reply";
    return wire::ErrorReply{};
  }
  JobId submit_as(std::uint32_t uid, const std::string& claimed_user = "") {
    wire::SubmitRequest r;
    r.spec.user = claimed_user;
    r.spec.hold = true;
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    auto m = ask(r, uid);
    const auto* ok = std::get_if<wire::SubmitReply>(&m);
    EXPECT_NE(ok, nullptr) << (std::holds_alternative<wire::ErrorReply>(m)
                                   ? std::get<wire::ErrorReply>(m).message
                                   : "");
    return ok ? ok->job : JobId(0);
  }
};

TEST_F(ClientAuthorization, TheJobBelongsToTheProvenCallerWithItsUid) {
  const JobId id = submit_as(1001);
  wire::JobQuery q;
  q.jobs = {id};
  auto m = ask(q, 1002);
  const auto& v = std::get<wire::JobQueryReply>(m).jobs.at(0);
  EXPECT_EQ(v.user, "alice");
}

TEST_F(ClientAuthorization, ARequestWithoutProofIsRefused) {
  EXPECT_NE(error_of(ask(wire::JobQuery{}, std::nullopt)).find("unauthenticated request"), std::string::npos);
  EXPECT_NE(error_of(ask_munge(wire::JobQuery{}, "stolen")).find("MUNGE credential replayed"),
            std::string::npos);
  EXPECT_TRUE(std::holds_alternative<wire::JobQueryReply>(ask_munge(wire::JobQuery{}, "ok:1002")));
  EXPECT_NE(error_of(ask(wire::JobQuery{}, 4711)).find("unknown uid"), std::string::npos);
  EXPECT_EQ(service_->counters().unauthenticated, 3u);
}

TEST_F(ClientAuthorization, ANamedUserOtherThanTheCallerIsRefused) {
  wire::SubmitRequest r;
  r.spec.user = "alice";
  r.program.argv = {"true"};
  r.program.working_dir = "/tmp";
  EXPECT_NE(error_of(ask(r, 1002)).find("names user 'alice', but it comes from 'bob'"), std::string::npos);
}

// sbatch --test-only: answered for the proven caller with the core's plan, and nothing
// is queued or stored; claiming another user is refused as for a real submission.
TEST_F(ClientAuthorization, ATestOnlySubmissionQueuesNothing) {
  const JobId held = submit_as(1001);
  wire::SubmitRequest r;
  r.test_only = true;
  r.spec.resources.cores = 2;
  r.program.argv = {"true"};
  r.program.working_dir = "/tmp";
  auto m = ask(r, 1002);
  const auto* ok = std::get_if<wire::SubmitReply>(&m);
  ASSERT_NE(ok, nullptr) << error_of(m);
  EXPECT_TRUE(ok->test_only);
  EXPECT_EQ(ok->job, JobId(0));
  // n1's agent never registered, so the node is down: no start can be promised, and the
  // reason says why (the core's plan is tested in start_estimate_test).
  EXPECT_FALSE(ok->estimated_start);
  EXPECT_FALSE(ok->reason.empty());
  EXPECT_TRUE(ok->nodes.empty());
  EXPECT_EQ(ok->partition, "batch");
  auto q = ask(wire::JobQuery{}, 1002);
  for (const auto& v : std::get<wire::JobQueryReply>(q).jobs)
    EXPECT_EQ(v.id, held) << "only alice's job exists";
  EXPECT_EQ(submit_as(1002).value(), held.value() + 1) << "a test uses up no id";
  r.spec.user = "alice";
  EXPECT_NE(error_of(ask(r, 1002)).find("names user 'alice'"), std::string::npos);
}

TEST_F(ClientAuthorization, OnlyTheOwnerOrAnAdminControlsAJob) {
  const JobId id = submit_as(1001, "alice");
  for (auto action : {wire::JobAction::kCancel, wire::JobAction::kRelease}) {
    auto m = ask(wire::JobControl{action, {id}, "alice"}, 1002);  // bob, claiming to be alice
    const auto& r = std::get<wire::JobControlReply>(m).results.at(0);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("belongs to 'alice', not 'bob'"), std::string::npos) << r.message;
  }
  auto by_admin = ask(wire::JobControl{wire::JobAction::kCancel, {id}, ""}, 1003);
  EXPECT_TRUE(std::get<wire::JobControlReply>(by_admin).results.at(0).ok);
}

// Seed 004: the bucket counts every request of a user (queries too), not only submissions;
// admins are not limited.
TEST_F(ClientAuthorization, EveryRequestOfAUserTakesFromTheBucket) {
  for (int i = 0; i < 1000; ++i)
    ASSERT_TRUE(std::holds_alternative<wire::JobQueryReply>(ask(wire::JobQuery{}, 1002)));
  EXPECT_NE(error_of(ask(wire::JobQuery{}, 1002)).find("'bob' is over the request rate limit"),
            std::string::npos);
  EXPECT_TRUE(std::holds_alternative<wire::JobQueryReply>(ask(wire::JobQuery{}, 1001)))
      << "alice has her own";
  EXPECT_TRUE(std::holds_alternative<wire::JobQueryReply>(ask(wire::JobQuery{}, 1003)))
      << "admins are not limited";
}

// docs/config.md: root and the admin group are not limited, submissions included (they
// used to take tokens like a user's).
TEST_F(ClientAuthorization, AdminsSubmissionsAreNotRateLimitedButUsersAre) {
  open_service("", "submit_burst = 2\nsubmit_refill_per_s = 0.001\n");
  for (int i = 0; i < 5; ++i) EXPECT_NE(submit_as(1003), JobId(0)) << "admin submission " << i;
  submit_as(1001);
  submit_as(1001);
  wire::SubmitRequest r;
  r.spec.hold = true;
  r.program.argv = {"true"};
  r.program.working_dir = "/tmp";
  EXPECT_NE(error_of(ask(r, 1001)).find("'alice' is over the submission rate limit"), std::string::npos);
}

// Issue 33 item 8: a filter list longer than anything meaningful is refused while the
// request is decoded, with the field and the count, instead of costing the loop a scan.
TEST_F(ClientAuthorization, AMillionEntryStateFilterIsRefusedNamingTheFieldAndCount) {
  wire::JobQuery q;
  q.include_finished = true;
  q.states.assign(1'000'000, JobState::kPending);
  const std::string why = error_of(ask(q, 1002));
  EXPECT_NE(why.find("states: has 1000000 entries; at most 13 are accepted"), std::string::npos) << why;
  wire::JobQuery ids;
  for (std::uint64_t i = 1; i <= 10'001; ++i) ids.jobs.emplace_back(i);
  EXPECT_NE(error_of(ask(ids, 1002)).find("jobs: has 10001 entries; at most 10000"), std::string::npos);
  ids.jobs.pop_back();
  EXPECT_TRUE(std::holds_alternative<wire::JobQueryReply>(ask(ids, 1002)));
}

TEST_F(ClientAuthorization, OnlyAdminsDrainNodes) {
  wire::NodeControl drain{wire::NodeAction::kDrain, {"n1"}, "bad DIMM", "root"};
  EXPECT_NE(error_of(ask(drain, 1001)).find("not 'alice'"), std::string::npos);
  auto m = ask(drain, 1003);
  EXPECT_TRUE(std::get<wire::NodeControlReply>(m).results.at(0).ok);
}

// sinfo -R's USER and TIMESTAMP: the proven caller who drained the node (never the name
// the request carries), when, kept across a restart; the coordinator's own reasons name
// the user it runs as (here unknown to the fake user database: its uid).
TEST_F(ClientAuthorization, ADrainNamesWhoDrainedItAndWhenAcrossARestart) {
  const auto node = [&](std::uint32_t uid) {
    auto m = ask(wire::NodeQuery{{"n1"}}, uid);
    const auto* r = std::get_if<wire::NodeQueryReply>(&m);
    EXPECT_NE(r, nullptr) << error_of(m);
    return r == nullptr ? wire::NodeView{} : r->nodes.at(0);
  };
  const wire::NodeView unregistered = node(1001);
  EXPECT_EQ(unregistered.reason, "not registered yet");
  EXPECT_EQ(unregistered.reason_user, std::to_string(::geteuid()));
  EXPECT_EQ(unregistered.reason_time, t_);

  t_ = t_ + Duration::seconds(60);
  auto m = ask(wire::NodeControl{wire::NodeAction::kDrain, {"n1"}, "bad DIMM", "alice"}, 1003);
  ASSERT_TRUE(std::get<wire::NodeControlReply>(m).results.at(0).ok);
  for (int restarted = 0; restarted < 2; ++restarted) {
    const wire::NodeView drained = node(1002);
    EXPECT_EQ(drained.reason, "bad DIMM");
    EXPECT_EQ(drained.reason_user, "ops") << "the proven caller, not the request's user field";
    EXPECT_EQ(drained.reason_uid, 1003u);
    EXPECT_EQ(drained.reason_time, t_);
    open_service("");
  }
}

}  // namespace
}  // namespace fairway::daemon

namespace fairway::daemon {
namespace {

// The reports (issue 12) answer any authenticated user; only shares hold back other
// users' usage, and only under private_data.
TEST_F(ClientAuthorization, ReportsCountWhatTheServiceHolds) {
  submit_as(1001);
  auto m = ask(wire::MetricsQuery{}, 1002);
  const auto* metrics = std::get_if<wire::MetricsReply>(&m);
  ASSERT_NE(metrics, nullptr) << error_of(m);
  const auto sample = [&](const std::string& family, const std::string& label, const std::string& value) {
    for (const auto& f : metrics->families) {
      if (f.name != family) continue;
      for (const auto& s : f.samples) {
        for (const auto& [k, v] : s.labels) {
          if (k == label && v == value) return s.value;
        }
      }
    }
    return -1.0;
  };
  EXPECT_EQ(sample("fairway_jobs", "state", "held"), 1.0);
  EXPECT_EQ(sample("fairway_nodes", "state", "unknown"), 1.0) << "declared, never registered";
  EXPECT_EQ(sample("fairway_cores", "state", "unknown"), 4.0);
  EXPECT_GE(sample("fairway_messages_total", "type", "SubmitRequest"), 1.0);
  EXPECT_EQ(sample("fairway_pass_duration_seconds", "le", "+Inf"), 0.0)
      << "no pass has run in this turn-driven test";

  auto p = ask(wire::PartitionQuery{}, 1002);
  const auto* parts = std::get_if<wire::PartitionQueryReply>(&p);
  ASSERT_NE(parts, nullptr) << error_of(p);
  ASSERT_EQ(parts->partitions.size(), 1u);
  const wire::PartitionView& v = parts->partitions[0];
  EXPECT_EQ(v.nodes, std::vector<std::string>{"n1"});
  EXPECT_EQ(v.cores, 4);
  EXPECT_EQ(v.nodes_up, 0);
  EXPECT_EQ(v.jobs_pending, 1);
  EXPECT_TRUE(v.is_default);
  auto unknown = ask(wire::PartitionQuery{{"nope"}}, 1002);
  EXPECT_NE(error_of(unknown).find("partition 'nope' does not exist (partitions: " + v.name + ")"),
            std::string::npos)
      << error_of(unknown);
}

TEST_F(ClientAuthorization, SharesShowOthersUsageUnlessPrivateData) {
  submit_as(1001);
  submit_as(1002);
  auto open = ask(wire::SharesQuery{}, 1002);
  const auto* all = std::get_if<wire::SharesReply>(&open);
  ASSERT_NE(all, nullptr) << error_of(open);
  EXPECT_EQ(all->algorithm, "classic");
  std::vector<std::string> users;
  for (const auto& r : all->rows) users.push_back(r.account + "/" + r.user);
  EXPECT_EQ(users, (std::vector<std::string>{"default/", "default/alice", "default/bob"}));
  EXPECT_DOUBLE_EQ(all->rows[1].fairshare, 1.0) << "no usage yet: full factor";
  EXPECT_DOUBLE_EQ(all->rows[1].norm_shares, 0.5);

  open_service("[security]\nprivate_data = true\n");
  ASSERT_FALSE(HasFatalFailure());
  auto mine = ask(wire::SharesQuery{}, 1002);
  users.clear();
  for (const auto& r : std::get<wire::SharesReply>(mine).rows) users.push_back(r.account + "/" + r.user);
  EXPECT_EQ(users, (std::vector<std::string>{"default/", "default/bob"}));
  auto admin = ask(wire::SharesQuery{"alice", ""}, 1003);
  users.clear();
  for (const auto& r : std::get<wire::SharesReply>(admin).rows) users.push_back(r.account + "/" + r.user);
  EXPECT_EQ(users, (std::vector<std::string>{"default/", "default/alice"}));
}

// A project reservation is its listed users' alone, whatever a request says about who
// sends it: the submitter is the kernel's uid, and a claimed user name changes nothing.
// Anyone (authenticated) may look at it, as Slurm shows reservations to all.
TEST_F(ClientAuthorization, OnlyAReservationsUsersSubmitIntoItAndEveryoneSeesIt) {
  open_service(
      "[[reservations]]\nname = \"lab\"\nstart = 1700003600\nduration = 3600\n"
      "nodes = \"n1\"\naccount = \"climate\"\nusers = [\"alice\"]\n");
  ASSERT_TRUE(service_);
  const auto into_lab = [](const std::string& claimed) {
    wire::SubmitRequest r;
    r.spec.user = claimed;
    r.spec.account = "climate";
    r.spec.reservation = "lab";
    r.spec.time_limit = Duration::minutes(10);
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    return r;
  };
  EXPECT_TRUE(std::holds_alternative<wire::SubmitReply>(ask(into_lab(""), 1001))) << "alice, a listed user";
  EXPECT_NE(error_of(ask(into_lab(""), 1002)).find("user 'bob' is not one of its users (alice)"),
            std::string::npos);
  // bob claiming to be alice is refused for the claim itself.
  EXPECT_NE(error_of(ask(into_lab("alice"), 1002)).find("names user 'alice', but it comes from 'bob'"),
            std::string::npos);
  EXPECT_NE(error_of(ask(into_lab(""), std::nullopt)).find("unauthenticated"), std::string::npos);

  auto seen = ask(wire::ReservationQuery{}, 1002);
  const auto* r = std::get_if<wire::ReservationQueryReply>(&seen);
  ASSERT_NE(r, nullptr) << error_of(seen);
  ASSERT_EQ(r->reservations.size(), 1u);
  EXPECT_EQ(r->reservations[0].users, std::vector<std::string>{"alice"});
  EXPECT_EQ(r->reservations[0].jobs_pending, 1);
  EXPECT_NE(error_of(ask(wire::ReservationQuery{}, std::nullopt)).find("unauthenticated"), std::string::npos);
}

}  // namespace
}  // namespace fairway::daemon

namespace fairway::daemon {
namespace {

// fairway update job: owners shorten and lower, only admins lengthen and raise; the change
// is stored, so it outlives a restart.
// scontrol show config: any proven user may read the settings (as in Slurm), nobody
// unproven may, and the answer names no key file.
TEST_F(ClientAuthorization, AnyProvenUserReadsTheSettingsAndAnUnprovenOneDoesNot) {
  auto seen = ask(wire::ConfigQuery{}, 1002);
  const auto* r = std::get_if<wire::ConfigReply>(&seen);
  ASSERT_NE(r, nullptr) << error_of(seen);
  EXPECT_EQ(r->now, t_);
  EXPECT_FALSE(r->entries.empty());
  for (const auto& e : r->entries) EXPECT_EQ(e.key.find("key"), std::string::npos) << e.key;
  EXPECT_NE(error_of(ask(wire::ConfigQuery{}, std::nullopt)).find("unauthenticated"), std::string::npos);
}

TEST_F(ClientAuthorization, UsersShortenTheirJobsOnlyAdminsLengthenThemAndChangesAreStored) {
  const JobId id = submit_as(1001);
  const auto update = [&](std::optional<Duration> limit, std::optional<std::int32_t> nice,
                          std::uint32_t uid) {
    wire::JobUpdate u;
    u.jobs = {id};
    u.time_limit = limit;
    u.nice = nice;
    auto m = ask(u, uid);
    const auto& r = std::get<wire::JobControlReply>(m).results.at(0);
    return r.ok ? std::string("ok") : r.message;
  };
  EXPECT_NE(update(Duration::minutes(30), std::nullopt, 1002).find("belongs to 'alice', not 'bob'"),
            std::string::npos);
  EXPECT_EQ(update(Duration::minutes(30), std::nullopt, 1001), "ok");
  EXPECT_NE(update(Duration::hours(2), std::nullopt, 1001)
                .find("only root and the admin group may raise a time limit (00:30:00 -> 02:00:00)"),
            std::string::npos);
  EXPECT_NE(update(std::nullopt, -5, 1001).find("negative nice"), std::string::npos);
  EXPECT_EQ(update(std::nullopt, 10, 1001), "ok");
  EXPECT_EQ(update(Duration::minutes(45), std::nullopt, 1003), "ok") << "an admin may raise it";

  open_service("");
  ASSERT_FALSE(HasFatalFailure());
  wire::JobQuery q;
  q.jobs = {id};
  auto m = ask(q, 1001);
  const auto& v = std::get<wire::JobQueryReply>(m).jobs.at(0);
  EXPECT_EQ(v.time_limit, Duration::minutes(45)) << "the stored request holds the change";
  EXPECT_EQ(v.state, JobState::kHeld);
}

}  // namespace
}  // namespace fairway::daemon

namespace fairway::daemon {
namespace {

// cancel --signal goes through the same owner check: bob cannot signal alice's job, and
// nothing is sent to its node.
TEST_F(ClientAuthorization, AnotherUsersJobCannotBeSignalled) {
  const JobId id = submit_as(1001);
  wire::JobControl signal{wire::JobAction::kSignal, {id}, "", 10, false};
  auto m = ask(signal, 1002);
  const auto& r = std::get<wire::JobControlReply>(m).results.at(0);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("belongs to 'alice', not 'bob'"), std::string::npos) << r.message;
  auto own = ask(signal, 1001);
  EXPECT_NE(
      std::get<wire::JobControlReply>(own).results.at(0).message.find("only a running job can be signalled"),
      std::string::npos);
}

}  // namespace
}  // namespace fairway::daemon
