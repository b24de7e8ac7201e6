// A CoordinatorService over a fresh state directory with one 4-core node "n1", for the
// synchronous service tests: reopen() is a crash and a restart on the same store.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "coordinator/daemon/coordinator_service.h"

namespace fairway::daemon::test_support {

class ServiceTest : public ::testing::Test {
 protected:
  // Who the service takes its callers to be (a fresh one at each reopen).
  virtual std::unique_ptr<ClientAuthenticator> authenticator() const = 0;

  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fw-service-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    auto config = parse_config(
        "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n"
        "[coordinator]\nstate_dir = \"" +
            dir_ + "\"\n",
        "test");
    ASSERT_TRUE(config) << config.error().message;
    config_ = *config;
    reopen();
  }
  void TearDown() override {
    service_.reset();
    std::filesystem::remove_all(dir_);
  }
  void reopen() {
    service_.reset();  // a crash: the lock and the store are released
    auto s = CoordinatorService::open(config_, t_, authenticator());
    ASSERT_TRUE(s) << s.error().message;
    service_ = std::move(*s);
  }

  std::string dir_;
  Config config_;
  Time t_ = Time::from_seconds(1'700'000'000);
  std::unique_ptr<CoordinatorService> service_;
};

}  // namespace fairway::daemon::test_support
