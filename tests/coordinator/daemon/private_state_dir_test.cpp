// The job store and its state directory are private to the coordinator's user whatever the
// umask, and a start on a directory or store that others can read is refused by name.
#include "coordinator/daemon/private_state_dir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <filesystem>

#include "coordinator/daemon/job_store.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

unsigned mode_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 07777U : 07777U;
}

class PrivateStateDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fw-state-XXXXXX").string();
    top_ = mkdtemp(tmpl.data());
    state_ = top_ + "/state";
  }
  void TearDown() override {
    ::umask(old_umask_);
    fs::remove_all(top_);
  }
  std::string top_, state_;
  mode_t old_umask_ = ::umask(0);  // the widest: the modes may not come from the umask
};

TEST_F(PrivateStateDir, TheStoreAndItsWalAre0600WhateverTheUmask) {
  ASSERT_TRUE(prepare_private_state_dir(state_));
  EXPECT_EQ(mode_of(state_), 0700U);
  auto store = JobStore::open(state_);
  ASSERT_TRUE(store) << store.error().message;
  const std::string db = state_ + "/" + JobStore::kFileName;
  ASSERT_TRUE(fs::exists(db + "-wal"));
  ASSERT_TRUE(fs::exists(db + "-shm"));
  for (const std::string& f : {db, db + "-wal", db + "-shm"}) EXPECT_EQ(mode_of(f), 0600U) << f;
  EXPECT_TRUE(prepare_private_state_dir(state_));
}

TEST_F(PrivateStateDir, JobStoreOpenMakesItsDirectory0700) {
  auto store = JobStore::open(state_);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(mode_of(state_), 0700U);
}

TEST_F(PrivateStateDir, RefusesADirectoryOthersCanRead) {
  ASSERT_EQ(::mkdir(state_.c_str(), 0755), 0);
  auto st = prepare_private_state_dir(state_);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kPermissionDenied);
  EXPECT_NE(st.error().message.find("state directory '" + state_ + "' is mode 0755"), std::string::npos)
      << st.error().message;
}

TEST_F(PrivateStateDir, RefusesAStoreOrWalOthersCanRead) {
  ASSERT_TRUE(prepare_private_state_dir(state_));
  {
    auto store = JobStore::open(state_);
    ASSERT_TRUE(store);
  }
  const std::string db = state_ + "/" + JobStore::kFileName;
  for (const std::string& f : {db, db + "-wal", db + "-shm"}) {
    if (!fs::exists(f)) continue;
    ::chmod(f.c_str(), 0604);
    auto st = prepare_private_state_dir(state_);
    ASSERT_FALSE(st) << f;
    EXPECT_NE(st.error().message.find("job store file '" + f + "' is mode 0604"), std::string::npos)
        << st.error().message;
    ::chmod(f.c_str(), 0600);
  }
  EXPECT_TRUE(prepare_private_state_dir(state_));
}

}  // namespace
}  // namespace fairway::daemon
