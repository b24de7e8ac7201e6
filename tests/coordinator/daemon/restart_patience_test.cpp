// After a coordinator restart, a running job whose node has not registered again may still
// be running there until that agent's lease runs out: it is given up only then, never at
// the mere heartbeat timeout (issue 9: nothing runs twice). Synchronous, fake time.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "coordinator/daemon/coordinator_service.h"
#include "shared/wire/codec.h"
#include "tests/support/test_authenticators.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

using RootOnly = test_support::RootOnlyAuthenticator;

TEST(RestartPatience, AnUnregisteredNodesJobWaitsForTheLeaseNotTheHeartbeatTimeout) {
  std::string tmpl = (fs::temp_directory_path() / "fw-restart-XXXXXX").string();
  const std::string dir = mkdtemp(tmpl.data());
  auto config = parse_config(
      "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n"
      "[coordinator]\nheartbeat_timeout = 10\nstate_dir = \"" +
          dir +
          "\"\n"
          "[agent]\nheartbeat_interval = 5\ncoordinator_lease = 60\nkill_grace = 30\n",
      "test");
  ASSERT_TRUE(config) << config.error().message;
  Time t = Time::from_seconds(1'700'000'000);
  JobId id;
  {
    auto s = CoordinatorService::open(*config, t, std::make_unique<RootOnly>());
    ASSERT_TRUE(s) << s.error().message;
    wire::AgentRegister reg{"n1", "test", NodeTopology::uniform("n1", 1, 4), {}, ""};
    (*s)->on_agent_frame("n1", wire::encode(reg), t, "n1");
    wire::SubmitRequest r;
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    (*s)->on_client_frame("c", wire::encode(r), t, net::PeerCredentials{0, 0, 1});
    for (const Outgoing& o : (*s)->end_turn(t)) {
      if (auto m = wire::decode(o.frame); m && std::holds_alternative<wire::SubmitReply>(*m)) {
        id = std::get<wire::SubmitReply>(*m).job;
      }
    }
    ASSERT_NE(id.value(), 0u);
    ASSERT_EQ((*s)->scheduler().job(id)->state, JobState::kRunning);
  }
  // The coordinator restarts; n1's agent does not come back (a partition).
  t = t + Duration::seconds(1);
  auto s = CoordinatorService::open(*config, t, std::make_unique<RootOnly>());
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_EQ((*s)->scheduler().job(id)->state, JobState::kRunning);
  (*s)->on_timer(t + Duration::seconds(11));  // past the heartbeat timeout
  (void)(*s)->end_turn(t + Duration::seconds(11));
  EXPECT_EQ((*s)->scheduler().job(id)->state, JobState::kRunning) << "requeued while it may still run";
  (*s)->on_timer(t + Duration::seconds(96));        // lease 60 + grace 30 + heartbeat 5: the
  (void)(*s)->end_turn(t + Duration::seconds(96));  // keepers' 2 s margin is not over yet
  EXPECT_EQ((*s)->scheduler().job(id)->state, JobState::kRunning);
  (*s)->on_timer(t + Duration::seconds(98));
  (void)(*s)->end_turn(t + Duration::seconds(98));
  const JobRecord* rec = (*s)->scheduler().job(id);
  ASSERT_NE(rec, nullptr);
  EXPECT_NE(rec->state, JobState::kRunning);
  s->reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fairway::daemon
