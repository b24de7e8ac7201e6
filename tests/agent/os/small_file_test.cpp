#include "agent/os/small_file.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

namespace fairway::agent {
namespace {

TEST(SmallFile, ReadsWholeCapsSizeAndNamesMissingFiles) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "fw-small-XXXXXX").string();
  const std::string dir = mkdtemp(tmpl.data());
  std::ofstream(dir + "/a") << std::string(5000, 'x');
  auto whole = read_small_file(dir + "/a", 10000);
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->size(), 5000u);

  auto big = read_small_file(dir + "/a", 4096);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code, ErrorCode::kInvalidArgument);

  auto missing = read_small_file(dir + "/nope", 100);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_NE(missing.error().message.find(dir + "/nope"), std::string::npos);

  std::filesystem::create_symlink(dir + "/a", dir + "/link");
  EXPECT_TRUE(read_small_file(dir + "/link", 10000));
  EXPECT_FALSE(read_small_file(dir + "/link", 10000, /*follow_symlinks=*/false));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fairway::agent
