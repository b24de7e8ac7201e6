#include "coordinator/daemon/agent_keyring.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "shared/net/curve_keys.h"

namespace fairway::daemon {
namespace {

class Keyring : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fw-keyring-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  // Lists a fresh key for `node` the way an admin replaces one: written aside, then moved in.
  std::string list(const std::string& node) {
    auto kp = net::generate_curve_keypair();
    EXPECT_TRUE(kp);
    std::ofstream(dir_ + "/." + node + ".tmp") << kp->public_z85 << "\n";
    std::filesystem::rename(dir_ + "/." + node + ".tmp", dir_ + "/" + node + ".pub");
    return kp->public_z85;
  }
  std::string dir_;
};

TEST_F(Keyring, ListedKeysMapToTheirNodeAndOthersToNothing) {
  const auto a = list("node-a");
  const auto b = list("node-b");
  AgentKeyring ring(dir_);
  EXPECT_EQ(ring.node_for(a), "node-a");
  EXPECT_EQ(ring.node_for(b), "node-b");
  EXPECT_EQ(ring.node_for(net::generate_curve_keypair()->public_z85), std::nullopt);
}

TEST_F(Keyring, AnAddedNodeAndAReplacedKeyNeedNoRestart) {
  const auto old_a = list("node-a");
  AgentKeyring ring(dir_);
  ASSERT_EQ(ring.node_for(old_a), "node-a");
  const auto c = list("node-c");
  EXPECT_EQ(ring.node_for(c), "node-c");
  const auto new_a = list("node-a");
  EXPECT_EQ(ring.node_for(new_a), "node-a");
  EXPECT_EQ(ring.node_for(old_a), std::nullopt) << "a replaced key is still admitted";
}

TEST_F(Keyring, AnUnreadableKeyFileIsSkippedAndAMissingDirectoryAdmitsNobody) {
  const auto a = list("node-a");
  std::ofstream(dir_ + "/broken.pub") << "not a key\n";
  AgentKeyring ring(dir_);
  EXPECT_EQ(ring.node_for(a), "node-a");
  EXPECT_EQ(ring.size(), 1u);
  AgentKeyring none(dir_ + "/absent");
  EXPECT_EQ(none.node_for(a), std::nullopt);
}

}  // namespace
}  // namespace fairway::daemon
