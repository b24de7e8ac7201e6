// What the store keeps besides jobs: nodes' admin states (drain, its reason, who drained
// it) and the meta table's values, each surviving a restart and refused when corrupt.
#include "coordinator/daemon/job_store.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/coordinator/daemon/store_test_fixture.h"

namespace fairway::daemon {
namespace {

using JobStoreTest = StoreTest;

TEST_F(JobStoreTest, NodeAdminStatesAreUpsertedAndSurviveRestart) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->set_node_admin_state({"n002", true, "bad DIMM"}));
    ASSERT_TRUE(store->set_node_admin_state({"n001", true, "maintenance"}));
    ASSERT_TRUE(store->set_node_admin_state({"n001", false, ""}));
    auto empty = store->set_node_admin_state({"", true, "x"});
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().code, ErrorCode::kInvalidArgument);
  }
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto states = store->load_node_admin_states();
  ASSERT_TRUE(states) << states.error().message;
  EXPECT_EQ(*states, (std::vector<NodeAdminState>{{"n001", false, ""}, {"n002", true, "bad DIMM"}}));
}

TEST_F(JobStoreTest, ACorruptNodeAdminRowIsAnErrorNamingTheNode) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->set_node_admin_state({"n009", true, "fan"}));
  }
  exec_raw("UPDATE node_admin SET drained = 'yes'");
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto states = store->load_node_admin_states();
  ASSERT_FALSE(states);
  EXPECT_EQ(states.error().code, ErrorCode::kIo);
  EXPECT_NE(states.error().message.find("node 'n009': column drained"), std::string::npos)
      << states.error().message;
}

TEST_F(JobStoreTest, ACorruptDrainerUidOrTimeIsAnErrorNamingTheNode) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->set_node_admin_state({"n010", true, "psu", "root", 0, Time::from_seconds(5)}));
  }
  for (const auto& [sql, column] : {std::pair{"UPDATE node_admin SET by_uid = -4", "by_uid"},
                                    std::pair{"UPDATE node_admin SET by_uid = 0, at = 'noon'", "at"}}) {
    exec_raw(sql);
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    auto states = store->load_node_admin_states();
    ASSERT_FALSE(states) << sql;
    EXPECT_NE(states.error().message.find(std::string("node 'n010': column ") + column), std::string::npos)
        << states.error().message;
  }
}

TEST_F(JobStoreTest, MetaValuesAreBinarySafeAndSurviveRestart) {
  const std::string snapshot(
      "\x00\x01"
      "fair\xff"
      "share\x00",
      13);
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->set_meta("fairshare", "old"));
    ASSERT_TRUE(store->set_meta("fairshare", snapshot));
  }
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto value = store->get_meta("fairshare");
  ASSERT_TRUE(value) << value.error().message;
  ASSERT_TRUE(value->has_value());
  EXPECT_EQ(**value, snapshot);
  auto missing = store->get_meta("absent");
  ASSERT_TRUE(missing);
  EXPECT_FALSE(missing->has_value());
}

TEST_F(JobStoreTest, TheStoresOwnMetaKeysCannotBeOverwritten) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  for (const char* key : {"schema_version", "next_job_id"}) {
    auto s = store->set_meta(key, "1");
    ASSERT_FALSE(s) << key;
    EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(s.error().message.find(key), std::string::npos) << s.error().message;
  }
  auto version = store->get_meta("schema_version");
  ASSERT_TRUE(version);
  ASSERT_TRUE(version->has_value());
  EXPECT_EQ(**version, std::to_string(JobStore::kSchemaVersion));
}

}  // namespace
}  // namespace fairway::daemon
