#include "coordinator/daemon/state_dir_lock.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

class StateDirLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fw-lock-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(StateDirLockTest, ASecondHolderIsRefusedNamingTheFirst) {
  auto first = StateDirLock::acquire(dir_);
  ASSERT_TRUE(first) << first.error().message;
  auto second = StateDirLock::acquire(dir_);
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(second.error().message.find("is in use by fairway-coordinator pid " + std::to_string(getpid())),
            std::string::npos)
      << second.error().message;
}

TEST_F(StateDirLockTest, TheLockIsFreeAgainOnceReleased) {
  {
    auto first = StateDirLock::acquire(dir_);
    ASSERT_TRUE(first);
  }
  EXPECT_TRUE(StateDirLock::acquire(dir_));
}

TEST_F(StateDirLockTest, ALiveIpcEndpointIsNotTakenOverAndAStaleOneIsCleared) {
  const std::string path = dir_ + "/c.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  auto live = claim_ipc_endpoint("ipc://" + path);
  ASSERT_FALSE(live);
  EXPECT_NE(live.error().message.find("served by another live process"), std::string::npos);
  ::close(fd);  // the socket file stays, nobody serves it
  EXPECT_TRUE(claim_ipc_endpoint("ipc://" + path));
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(claim_ipc_endpoint("tcp://127.0.0.1:6817"));
}

}  // namespace
}  // namespace fairway::daemon
