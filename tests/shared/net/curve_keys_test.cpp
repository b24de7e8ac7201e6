#include "shared/net/curve_keys.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <filesystem>
#include <fstream>

namespace fairway::net {
namespace {

class KeyFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fw-keys-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text, mode_t mode = 0600) {
    const std::string p = dir_ + "/" + name;
    std::ofstream(p) << text;
    chmod(p.c_str(), mode);
    return p;
  }
  std::string dir_;
};

TEST_F(KeyFiles, AGeneratedPairRoundTrips) {
  auto kp = generate_curve_keypair();
  ASSERT_TRUE(kp);
  ASSERT_TRUE(write_curve_keypair(dir_, "n1", *kp));
  struct stat st {};
  ASSERT_EQ(stat((dir_ + "/n1.key").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto secret = read_curve_secret_key(dir_ + "/n1.key");
  ASSERT_TRUE(secret) << secret.error().message;
  EXPECT_EQ(secret->public_z85, kp->public_z85);
  auto pub = read_curve_public_key(dir_ + "/n1.pub");
  ASSERT_TRUE(pub);
  EXPECT_EQ(*pub, kp->public_z85);
  EXPECT_FALSE(write_curve_keypair(dir_, "n1", *kp)) << "an existing key was overwritten";
}

TEST_F(KeyFiles, WrongLengthIsRefusedNamingTheFile) {
  auto r = read_curve_public_key(write("short.pub", "abc\n"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("short.pub"), std::string::npos);
  EXPECT_NE(r.error().message.find("40"), std::string::npos);
}

TEST_F(KeyFiles, BadZ85IsRefused) {
  auto r = read_curve_public_key(write("bad.pub", std::string(40, '"') + "\n"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("Z85"), std::string::npos);
}

TEST_F(KeyFiles, AWorldReadableSecretKeyIsRefused) {
  auto kp = generate_curve_keypair();
  ASSERT_TRUE(kp);
  auto r = read_curve_secret_key(write("open.key", kp->secret_z85 + "\n", 0644));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("open.key"), std::string::npos);
  EXPECT_NE(r.error().message.find("group or others"), std::string::npos);
}

TEST_F(KeyFiles, AMissingFileIsRefusedNamingIt) {
  auto r = read_curve_secret_key(dir_ + "/absent.key");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("absent.key"), std::string::npos);
}

}  // namespace
}  // namespace fairway::net
