// make_private_dir makes 0700 directories whatever the umask; check_private refuses, naming
// path and mode, what group or others can reach.
#include "shared/base/private_files.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>

namespace fairway {
namespace {

class PrivateFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/fw-private-XXXXXX";
    dir_ = ::mkdtemp(pattern);
  }
  void TearDown() override {
    ::umask(old_umask_);
    std::filesystem::remove_all(dir_);
  }
  static unsigned mode_of(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 07777U : 07777U;
  }
  std::string dir_;
  mode_t old_umask_ = ::umask(0);  // the widest: nothing may come from the umask
};

TEST_F(PrivateFiles, MakesEachMissingDirectory0700) {
  const std::string deep = dir_ + "/a/b/c";
  ASSERT_TRUE(make_private_dir(deep));
  EXPECT_EQ(mode_of(dir_ + "/a"), 0700U);
  EXPECT_EQ(mode_of(dir_ + "/a/b"), 0700U);
  EXPECT_EQ(mode_of(deep), 0700U);
  EXPECT_TRUE(make_private_dir(deep + "/"));  // there already: fine
}

TEST_F(PrivateFiles, MakesEachMissingDirectoryWithTheModeGiven) {
  const std::string deep = dir_ + "/spool/node1";
  ASSERT_TRUE(make_dirs(deep, 0711));
  EXPECT_EQ(mode_of(dir_ + "/spool"), 0711U);  // a job's user passes through to its script
  EXPECT_EQ(mode_of(deep), 0711U);
}

TEST_F(PrivateFiles, LeavesAnExistingDirectoryAsItIs) {
  const std::string d = dir_ + "/open";
  ASSERT_EQ(::mkdir(d.c_str(), 0755), 0);
  ASSERT_TRUE(make_private_dir(d));
  EXPECT_EQ(mode_of(d), 0755U);
}

TEST_F(PrivateFiles, AFileInTheWayIsAnError) {
  const std::string f = dir_ + "/file";
  std::ofstream(f) << "x";
  auto st = make_private_dir(f + "/sub");
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find(f), std::string::npos) << st.error().message;
}

TEST_F(PrivateFiles, RefusesWhatGroupOrOthersCanReach) {
  const std::string d = dir_ + "/state";
  ASSERT_EQ(::mkdir(d.c_str(), 0700), 0);
  EXPECT_TRUE(check_private(d, "state directory"));
  for (const unsigned open : {0750U, 0705U, 0701U, 0710U}) {
    ::chmod(d.c_str(), open);
    auto st = check_private(d, "state directory");
    ASSERT_FALSE(st) << std::oct << open;
    EXPECT_EQ(st.error().code, ErrorCode::kPermissionDenied);
    EXPECT_NE(st.error().message.find("state directory '" + d + "' is mode " + mode_text(open)),
              std::string::npos)
        << st.error().message;
    EXPECT_NE(st.error().message.find("chmod 0700 '" + d + "'"), std::string::npos) << st.error().message;
  }
  const std::string f = dir_ + "/fairway.db";
  std::ofstream(f) << "x";
  ::chmod(f.c_str(), 0644);
  auto st = check_private(f, "job store file");
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("job store file '" + f + "' is mode 0644"), std::string::npos);
  EXPECT_NE(st.error().message.find("chmod 0600"), std::string::npos);
  ::chmod(f.c_str(), 0600);
  EXPECT_TRUE(check_private(f, "job store file"));
  EXPECT_TRUE(check_private(dir_ + "/absent", "job store file"));
}

TEST(ModeText, IsChmodsOctal) {
  EXPECT_EQ(mode_text(0755), "0755");
  EXPECT_EQ(mode_text(0600), "0600");
  EXPECT_EQ(mode_text(040755), "0755");
}

}  // namespace
}  // namespace fairway
