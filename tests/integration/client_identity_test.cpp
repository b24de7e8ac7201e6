// Who asks is proven, never told (issue 9): the kernel names local clients, MUNGE names
// remote ones; a forged uid, a forged user name, another user's job and a replayed
// credential are all refused on the real coordinator and CLI.
#include <netinet/in.h>
#include <sys/socket.h>

#include "shared/auth/munge_credential.h"
#include "shared/wire/codec.h"
#include "tests/integration/cluster_fixture.h"
#include "tests/support/munge_daemon.h"

namespace fairway::integration {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string error_of(const Result<wire::Message>& r) {
  if (!r) return "transport: " + r.error().message;
  const auto* e = std::get_if<wire::ErrorReply>(&*r);
  return e != nullptr ? e->message : "";
}

class ClientIdentity : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "needs root to act as other users";
  }
  // A held job of the test's own user (root), which nobody else may touch.
  JobId held_root_job() {
    auto r = wrap("true");
    r.spec.hold = true;
    auto id = submit(r);
    EXPECT_TRUE(id);
    return id.value_or(JobId(0));
  }
};

TEST_F(ClientIdentity, AForgedRootUidGainsNothingTheRealUserRunsAsItself) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const std::string who = dir_ + "/who";
  std::string out;
  // The CLI believes it is root (getuid() == 0); the kernel says nobody, and the job the
  // coordinator accepts runs as nobody: the forgery gains nothing. (A request that names
  // another user is refused: ARequestNamingAnotherUserIsRefusedEvenFromRoot.)
  // The job inherits the shim through its environment, so `id` would lie inside it too:
  // the kernel's view of its real uid is read from /proc instead.
  const std::string real_uid = dir_ + "/real-uid";
  ASSERT_EQ(run_cli_as("nobody",
                       {"submit", "--parsable", "-D", dir_, "--wrap",
                        "awk '/^Uid:/ {print $2}' /proc/self/status > " + real_uid},
                       out, {std::string("LD_PRELOAD=") + FAIRWAY_FAKE_ROOT_SHIM}),
            0)
      << out;
  {
    auto forged = wait_state(JobId(std::stoull(out)), [](JobState s) { return is_terminal(s); });
    ASSERT_TRUE(forged);
    EXPECT_EQ(forged->user, "nobody");
    const passwd* nobody = getpwnam("nobody");
    ASSERT_NE(nobody, nullptr);
    EXPECT_EQ(read_file(real_uid), std::to_string(nobody->pw_uid) + "\n");
  }
  // Without the trick the same command runs, as nobody.
  ASSERT_EQ(run_cli_as("nobody", {"submit", "--parsable", "-D", dir_, "--wrap", "id -un > " + who}, out), 0)
      << out;
  const JobId id(std::stoull(out));
  auto v = wait_state(id, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted);
  EXPECT_EQ(v->user, "nobody");
  EXPECT_EQ(read_file(who), "nobody\n");
}

TEST_F(ClientIdentity, ARequestNamingAnotherUserIsRefusedEvenFromRoot) {
  start_coordinator();
  ASSERT_TRUE(eventually([&] { return call(wire::NodeQuery{}).has_value(); }));
  auto r = wrap("true");
  r.spec.user = "daemon";
  const std::string e = error_of(call(r));
  EXPECT_TRUE(contains(e, "the request names user 'daemon', but it comes from 'root'")) << e;
}

TEST_F(ClientIdentity, AUserCannotCancelHoldOrReleaseAnothersJob) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const JobId id = held_root_job();
  std::string out;
  for (const char* verb : {"cancel", "release", "requeue"}) {
    EXPECT_EQ(run_cli_as("nobody", {verb, std::to_string(id.value())}, out), 1) << verb << ": " << out;
    EXPECT_TRUE(contains(out, "belongs to 'root', not 'nobody'")) << verb << ": " << out;
  }
  EXPECT_EQ(job(id)->state, JobState::kHeld);
  // Its owner can.
  auto done = call(wire::JobControl{wire::JobAction::kCancel, {id}, ""});
  ASSERT_TRUE(done);
  EXPECT_TRUE(std::get<wire::JobControlReply>(*done).results.at(0).ok);
}

TEST_F(ClientIdentity, PrivateDataHidesOtherUsersJobs) {
  write_config("", "private_data = true\n");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const JobId id = held_root_job();
  std::string out;
  EXPECT_EQ(run_cli_as("nobody", {"show", "job", std::to_string(id.value())}, out), 1) << out;
  EXPECT_EQ(run_cli_as("nobody", {"queue"}, out), 0) << out;
  EXPECT_FALSE(contains(out, "it")) << "nobody sees root's job:\n" << out;
  EXPECT_EQ(run_cli_as("nobody", {"cancel", std::to_string(id.value())}, out), 1) << out;
  EXPECT_TRUE(contains(out, "does not exist")) << out;
  ASSERT_TRUE(job(id));  // root (an admin) sees it
}

// Accounting and dependencies are ways to ask about a job too: with private_data, another
// user's finished job is as absent from `history` as from `queue`, and a dependency on it
// (which would tell how it ended) is refused as naming a job that does not exist.
TEST_F(ClientIdentity, PrivateDataHidesOtherUsersHistoryAndDependencies) {
  write_config("", "private_data = true\n");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const JobId id = held_root_job();
  auto cancelled = call(wire::JobControl{wire::JobAction::kCancel, {id}, ""});
  ASSERT_TRUE(cancelled);
  ASSERT_TRUE(std::get<wire::JobControlReply>(*cancelled).results.at(0).ok);
  const std::string ids = std::to_string(id.value());
  std::string out;
  EXPECT_EQ(run_cli_as("nobody", {"history", "-P", "-j", ids}, out), 0) << out;
  EXPECT_FALSE(contains(out, "\n" + ids + "|")) << "nobody sees root's finished job:\n" << out;
  EXPECT_EQ(run_cli_as("nobody", {"history", "-P", "-u", "root"}, out), 0) << out;
  EXPECT_FALSE(contains(out, "\n" + ids + "|")) << out;
  EXPECT_EQ(run_cli_as("nobody", {"submit", "-D", dir_, "-d", "afternotok:" + ids, "--wrap", "true"}, out), 1)
      << out;
  EXPECT_TRUE(contains(out, "--dependency names job " + ids + ", which does not exist")) << out;
  // Root (an admin) sees it in the history.
  wire::JobQuery q;
  q.from_store = true;
  q.jobs = {id};
  auto mine = call(q);
  ASSERT_TRUE(mine);
  EXPECT_EQ(std::get<wire::JobQueryReply>(*mine).jobs.size(), 1u);
}

// A site that declares its accounts bills every job to one of them: an unknown account is
// refused naming the known ones, and a user may charge only an account they belong to.
TEST_F(ClientIdentity, DeclaredAccountsAreTheOnlyOnesAUserMayCharge) {
  write_config(
      "[[accounts]]\nname = \"physics\"\nusers = [\"nobody\"]\n"
      "[[accounts]]\nname = \"chem\"\nusers = [\"daemon\"]\n");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  std::string out;
  EXPECT_EQ(run_cli_as("nobody", {"submit", "-D", "/tmp", "-A", "astro", "--hold", "--wrap", "true"}, out), 1)
      << out;
  EXPECT_TRUE(contains(out, "account 'astro' is not a known account (accounts: physics, chem)")) << out;
  EXPECT_EQ(run_cli_as("nobody", {"submit", "-D", "/tmp", "-A", "chem", "--hold", "--wrap", "true"}, out), 1)
      << out;
  EXPECT_TRUE(contains(out, "account 'chem': user 'nobody' is not one of its users")) << out;
  EXPECT_EQ(run_cli_as("nobody", {"submit", "-D", "/tmp", "--parsable", "--hold", "--wrap", "true"}, out), 0)
      << out;
  const std::uint64_t first = std::stoull(out);
  auto v = job(JobId(first));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->account, "physics") << "the user's own account is the default";
  // Root, an admin, may bill any declared account, and refused submissions used no ids.
  auto r = wrap("true");
  r.spec.hold = true;
  r.spec.account = "chem";
  auto id = submit(r);
  ASSERT_TRUE(id);
  EXPECT_EQ(id->value(), first + 1);
}

TEST_F(ClientIdentity, TheAdminGroupManagesNodesAndOthersDoNot) {
  const group* g = getgrgid(getpwnam("nobody")->pw_gid);
  ASSERT_NE(g, nullptr);
  write_config("", "admin_group = \"" + std::string(g->gr_name) + "\"\n");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  std::string out;
  EXPECT_EQ(run_cli_as("nobody", {"drain", "kb01", "--reason", "admin group"}, out), 0) << out;
  ASSERT_TRUE(eventually([&] {
    auto n = nodes();
    return n.size() == 1 && n[0].state == "drained";
  }));
  const JobId id = held_root_job();
  EXPECT_EQ(run_cli_as("nobody", {"cancel", std::to_string(id.value())}, out), 0) << out;
}

// Over TCP the kernel cannot say who asks: each request must carry a MUNGE credential made
// for exactly its bytes, usable once.
TEST_F(ClientIdentity, OverTcpOnlyAFreshMungeCredentialForTheRequestIsServed) {
  testing::MungeDaemon munged(dir_ + "/munge");
  ASSERT_TRUE(munged.ok()) << "munged did not start: " << read_file(dir_ + "/munge/munged.log");
  write_config("", "munge_socket = \"" + munged.socket() + "\"\n");
  {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    clients_ep_ = "tcp://127.0.0.1:" + std::to_string(ntohs(a.sin_port));
    ::close(s);
  }
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  // Up once the node is known (the node query itself must be signed over TCP).
  ASSERT_TRUE(eventually([&] {
    auto c = auth::sign_request(wire::encode(wire::NodeQuery{}), munged.socket());
    if (!c) return false;
    auto r = call(wire::AuthenticatedRequest{*c, wire::encode(wire::NodeQuery{})}, 300ms);
    auto* n = r ? std::get_if<wire::NodeQueryReply>(&*r) : nullptr;
    return n != nullptr && n->nodes.size() == 1;
  }));

  EXPECT_TRUE(contains(error_of(call(wrap("true"))), "unauthenticated request")) << "a bare request";

  std::string out;
  ASSERT_EQ(run_cli_as("nobody", {"submit", "--parsable", "-D", dir_, "--wrap", "true"}, out,
                       {"FAIRWAY_MUNGE_SOCKET=" + munged.socket()}),
            0)
      << out;
  const JobId id(std::stoull(out));

  wire::JobQuery q;
  q.jobs = {id};
  const std::string frame = wire::encode(q);
  auto cred = auth::sign_request(frame, munged.socket());
  ASSERT_TRUE(cred) << cred.error().message;
  const wire::AuthenticatedRequest signed_query{*cred, frame};
  auto first = call(signed_query);
  ASSERT_TRUE(first);
  const auto* reply = std::get_if<wire::JobQueryReply>(&*first);
  ASSERT_NE(reply, nullptr) << error_of(first);
  ASSERT_EQ(reply->jobs.size(), 1u);
  EXPECT_EQ(reply->jobs[0].user, "nobody");

  EXPECT_TRUE(contains(error_of(call(signed_query)), "MUNGE credential replayed"));
  // A fresh credential made for the query cannot carry a cancel instead.
  auto fresh = auth::sign_request(frame, munged.socket());
  ASSERT_TRUE(fresh);
  wire::JobControl cancel{wire::JobAction::kCancel, {id}, ""};
  EXPECT_TRUE(contains(error_of(call(wire::AuthenticatedRequest{*fresh, wire::encode(cancel)})),
                       "made for another request"));
}

}  // namespace
}  // namespace fairway::integration
