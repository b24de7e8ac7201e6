// Stores written by earlier versions, frozen as SQL dumps in tests/fixtures/store (how each
// was made: make-golden.sh): each must still open, and the coordinator must recover every
// job from it with every field. Up to schema 5 the stored requests are wire frames of their
// time; opening one rewrites them as the store's own records (issue 14).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/known_nodes.h"
#include "coordinator/daemon/stored_request.h"
#include "shared/model/job_array.h"
#include "shared/wire/codec.h"
#include "store_test_fixture.h"
#include "tests/shared/wire/wire_test_util.h"
#include "tests/support/test_authenticators.h"

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
  auto service =
      CoordinatorService::open(*config, now, std::make_unique<test_support::RootOnlyAuthenticator>());
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

// Schema 5, the last to keep requests as wire frames: opening it rewrites every row's
// request as a store record holding the same request, field for field (arrays, tasks,
// dependencies, --begin, mail, --signal, output patterns, layouts, memory, -w/-x,
// --export), and the coordinator recovers from it: the waiting jobs wait, the array's
// finished tasks are in the history.
TEST_F(GoldenStore, SchemaFiveFromStopTwentyOneBecomesStoreRecordsWithEveryField) {
  load("schema5-golden.sql");
  std::map<std::string, wire::SubmitRequest> before;
  for (const auto& row : select_on(db_path(), "SELECT id, request FROM jobs")) {
    auto frame = wire::decode(row[1]);
    ASSERT_TRUE(frame && std::holds_alternative<wire::SubmitRequest>(*frame)) << "job " << row[0];
    before[row[0]] = std::get<wire::SubmitRequest>(*frame);
  }
  ASSERT_EQ(before.size(), 11u);
  EXPECT_EQ(before.at("14").spec.dependencies.size(), 2u) << "the golden file holds what it claims";
  EXPECT_FALSE(before.at("9").spec.array.empty());

  auto config = parse_config("[coordinator]\nstate_dir = \"" + state_dir() + "\"\n", "test");
  ASSERT_TRUE(config) << config.error().message;
  const Time now = Time::from_seconds(1'795'800'000);
  auto service =
      CoordinatorService::open(*config, now, std::make_unique<test_support::RootOnlyAuthenticator>());
  ASSERT_TRUE(service) << service.error().message;

  EXPECT_EQ(select_on(db_path(), "SELECT value FROM meta WHERE key = 'schema_version'").at(0).at(0),
            std::to_string(kJobStoreSchemaVersion));
  std::size_t rows = 0;
  for (const auto& row : select_on(db_path(), "SELECT id, request FROM jobs")) {
    ++rows;
    auto record = decode_stored_request(row[1]);
    ASSERT_TRUE(record) << "job " << row[0] << ": " << record.error().message;
    const wire::SubmitRequest& was = before.at(row[0]);
    EXPECT_TRUE(wire::testing::equal(*record, was)) << "job " << row[0];
    EXPECT_EQ(format_array_spec(record->spec.array), format_array_spec(was.spec.array)) << "job " << row[0];
    EXPECT_EQ(record->spec.array_job, was.spec.array_job) << "job " << row[0];
    EXPECT_EQ(record->spec.array_task, was.spec.array_task) << "job " << row[0];
  }
  EXPECT_EQ(rows, before.size());
  // The node the coordinator had learned (no [[nodes]] here) is a store record too, and the
  // restarted coordinator knows it before its agent comes back.
  const std::string node_record =
      select_on(db_path(), "SELECT value FROM meta WHERE key = 'node/n1'").at(0).at(0);
  auto node = parse_known_node_record(node_record);
  ASSERT_TRUE(node) << node.error().message;
  EXPECT_EQ(node->total_cores(), 28);
  EXPECT_EQ(node->total_gpus(), 2);
  (*service)->on_client_frame("c", wire::encode(wire::NodeQuery{}), now, net::PeerCredentials{0, 0, 1});
  bool listed = false;
  for (const Outgoing& o : (*service)->end_turn(now, false)) {
    if (auto m = wire::decode(o.frame); m && std::holds_alternative<wire::NodeQueryReply>(*m)) {
      for (const auto& v : std::get<wire::NodeQueryReply>(*m).nodes) listed = listed || v.name == "n1";
    }
  }
  EXPECT_TRUE(listed) << "fairway nodes lists the remembered node";

  auto ask = [&](const wire::JobQuery& q) {
    (*service)->on_client_frame("c", wire::encode(q), now, net::PeerCredentials{0, 0, 1});
    std::vector<wire::JobView> jobs;
    for (const Outgoing& o : (*service)->end_turn(now, false)) {
      if (auto m = wire::decode(o.frame); m && std::holds_alternative<wire::JobQueryReply>(*m)) {
        jobs = std::get<wire::JobQueryReply>(*m).jobs;
      }
    }
    return jobs;
  };
  wire::JobQuery waiting;
  waiting.jobs = {JobId(14)};
  const auto options = ask(waiting);
  ASSERT_EQ(options.size(), 1u);
  EXPECT_EQ(options[0].name, "g5-options");
  EXPECT_EQ(options[0].state, JobState::kHeld);
  EXPECT_EQ(options[0].time_limit, Duration::minutes(30));
  waiting.jobs = {JobId(9)};
  const auto held_array = ask(waiting);
  ASSERT_FALSE(held_array.empty());
  EXPECT_EQ(held_array[0].name, "g5-held-array");
  EXPECT_EQ(held_array[0].state, JobState::kHeld);
  wire::JobQuery history;
  history.include_finished = true;
  history.from_store = true;
  history.jobs = {JobId(5)};
  const auto tasks = ask(history);
  ASSERT_EQ(tasks.size(), 3u) << "sacct -j 5: the array's three tasks";
  for (const auto& t : tasks) {
    EXPECT_EQ(t.state, JobState::kCompleted) << t.id.value();
    EXPECT_EQ(t.array_job, JobId(5));
  }
}

}  // namespace
}  // namespace fairway::daemon
