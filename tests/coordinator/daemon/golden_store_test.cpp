// Stores written by earlier versions, frozen as SQL dumps in tests/fixtures/store: each must
// still open, and the coordinator must recover every job from it with every field, since the
// stored requests are wire frames of their time (issue 14).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "coordinator/daemon/coordinator_service.h"
#include "root_authenticator.h"
#include "shared/wire/codec.h"
#include "store_test_fixture.h"

namespace fairway::daemon {
namespace {

class GoldenStore : public StoreTest {
 protected:
  void load(const std::string& name) {
    std::ifstream in(std::string(FAIRWAY_SOURCE_DIR) + "/tests/fixtures/store/" + name);
    ASSERT_TRUE(in) << name;
    std::stringstream sql;
    sql << in.rdbuf();
    std::filesystem::create_directories(state_dir());
    exec_raw(sql.str());
  }
};

TEST_F(GoldenStore, SchemaTwoFromStopTenRecoversEveryJobAndField) {
  load("schema2-golden.sql");
  auto config = parse_config("[coordinator]\nstate_dir = \"" + state_dir() + "\"\n", "test");
  ASSERT_TRUE(config) << config.error().message;
  const Time now = Time::from_seconds(1'795'640'000);
  auto service = CoordinatorService::open(*config, now, std::make_unique<test_support::RootOnlyAuthenticator>());
  ASSERT_TRUE(service) << service.error().message;
  wire::JobQuery q;
  q.include_finished = true;
  q.from_store = true;
  (*service)->on_client_frame("c", wire::encode(q), now, net::PeerCredentials{0, 0, 1});
  std::optional<wire::JobQueryReply> reply;
  for (const Outgoing& o : (*service)->end_turn(now, false)) {
    if (auto m = wire::decode(o.frame); m && std::holds_alternative<wire::JobQueryReply>(*m)) {
      reply = std::get<wire::JobQueryReply>(*m);
    }
  }
  ASSERT_TRUE(reply);
  ASSERT_EQ(reply->jobs.size(), 3u) << "the finished ones; the held one waits in the queue";
  const auto& ok = reply->jobs[0];
  EXPECT_EQ(ok.name, "golden-ok");
  EXPECT_EQ(ok.state, JobState::kCompleted);
  EXPECT_EQ(ok.exit_code, 0);
  ASSERT_EQ(ok.allocation.size(), 1u);
  EXPECT_EQ(ok.allocation[0].cores, (std::vector<std::int32_t>{0, 1}));
  const auto& failed = reply->jobs[1];
  EXPECT_EQ(failed.state, JobState::kFailed);
  EXPECT_EQ(failed.exit_code, 3);
  EXPECT_EQ(failed.gpu_type, "v100");
  EXPECT_EQ(failed.allocation.at(0).gpus, std::vector<std::int32_t>{1});
  EXPECT_EQ(reply->jobs[2].state_reason, "cancelled by root");

  wire::JobQuery waiting;
  waiting.jobs = {JobId(1)};
  (*service)->on_client_frame("c", wire::encode(waiting), now, net::PeerCredentials{0, 0, 1});
  std::optional<wire::JobView> held;
  for (const Outgoing& o : (*service)->end_turn(now, false)) {
    if (auto m = wire::decode(o.frame); m && std::holds_alternative<wire::JobQueryReply>(*m)) {
      const auto& jobs = std::get<wire::JobQueryReply>(*m).jobs;
      if (!jobs.empty()) held = jobs.front();
    }
  }
  ASSERT_TRUE(held);
  EXPECT_EQ(held->name, "golden-held");
  EXPECT_EQ(held->state, JobState::kHeld);
  EXPECT_EQ(held->cores, 4);
  EXPECT_EQ(held->time_limit, Duration::hours(2));
  EXPECT_EQ(held->account, "default");
}

}  // namespace
}  // namespace fairway::daemon
