#include "agent/os/program_search.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>

namespace fairway::agent {
namespace {

namespace fs = std::filesystem;

class ProgramSearchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fairway-program-search-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "a");
    fs::create_directories(dir_ / "b");
    fs::create_directories(dir_ / "work" / "rel");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void make_file(const fs::path& p, bool executable) {
    std::ofstream(p) << "#!/bin/sh\n";
    fs::permissions(p, executable ? fs::perms::owner_all : fs::perms::owner_read | fs::perms::owner_write);
  }
  std::string path(const std::string& sub) const { return (dir_ / sub).string(); }

  fs::path dir_;
};

TEST_F(ProgramSearchTest, TheFirstExecutableFileInTheJobsPathWins) {
  make_file(dir_ / "a" / "tool", false);  // not executable: skipped, as execvp skips it
  fs::create_directories(dir_ / "a" / "sub");
  make_file(dir_ / "b" / "tool", true);
  auto found = find_program("tool", {"HOME=/x", "PATH=" + path("a") + ":" + path("b")}, path("work"));
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(*found, path("b") + "/tool");
  // A directory of that name is not a program either.
  auto dir = find_program("sub", {"PATH=" + path("a")}, path("work"));
  EXPECT_FALSE(dir);
}

TEST_F(ProgramSearchTest, RelativeAndEmptyPathEntriesAreTheWorkingDirectorys) {
  make_file(dir_ / "work" / "rel" / "r", true);
  make_file(dir_ / "work" / "here", true);
  auto rel = find_program("r", {"PATH=/nonexistent:rel"}, path("work"));
  ASSERT_TRUE(rel) << rel.error().message;
  EXPECT_EQ(*rel, path("work") + "/rel/r");
  auto empty = find_program("here", {"PATH=/nonexistent::/also-not"}, path("work"));
  ASSERT_TRUE(empty) << empty.error().message;
  EXPECT_EQ(*empty, path("work") + "/./here");
}

TEST_F(ProgramSearchTest, ANameWithASlashIsAPathNotASearch) {
  EXPECT_EQ(find_program("/bin/true", {"PATH=" + path("a")}, path("work")).value(), "/bin/true");
  EXPECT_EQ(find_program("rel/r", {"PATH=" + path("a")}, path("work")).value(), path("work") + "/rel/r");
}

TEST_F(ProgramSearchTest, NotFoundNamesTheCommandAndThePathSearched) {
  auto missing = find_program("fairway-none", {"PATHX=" + path("b"), "PATH=" + path("a")}, path("work"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(missing.error().message, "command 'fairway-none' not found in PATH '" + path("a") + "'");
}

}  // namespace
}  // namespace fairway::agent
