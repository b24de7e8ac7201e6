#include "client/api/coordinator_endpoint.h"

#include <gtest/gtest.h>

#include "shared/config/config.h"
#include "tests/client/temp_dir.h"

namespace fairway::cli {
namespace {

class Endpoint : public ::testing::Test {
 protected:
  testing::TempDir dir;
  EndpointSources sources() {
    EndpointSources s;
    s.default_config = dir.path() + "/absent.toml";
    return s;
  }
  std::string config_with(const std::string& endpoint, const std::string& name = "f.toml") {
    return dir.write(name, "[coordinator]\nlisten_clients = \"" + endpoint + "\"\n");
  }
};

TEST_F(Endpoint, FlagWinsOverEverything) {
  EndpointSources s = sources();
  s.flag = "tcp://flag:1";
  s.env_coordinator = "tcp://env:1";
  s.config_flag = config_with("tcp://config:1");
  EXPECT_EQ(*resolve_coordinator_endpoint(s), "tcp://flag:1");
  s.flag = "";
  EXPECT_EQ(resolve_coordinator_endpoint(s).error().message, "--coordinator: empty endpoint");
}

TEST_F(Endpoint, EnvironmentThenConfigFlagThenEnvConfThenDefaultFile) {
  EndpointSources s = sources();
  s.env_coordinator = "tcp://env:1";
  s.config_flag = config_with("tcp://config:1");
  EXPECT_EQ(*resolve_coordinator_endpoint(s), "tcp://env:1");
  s.env_coordinator.reset();
  s.env_conf = config_with("tcp://envconf:1", "e.toml");
  EXPECT_EQ(*resolve_coordinator_endpoint(s), "tcp://config:1");
  s.config_flag.reset();
  EXPECT_EQ(*resolve_coordinator_endpoint(s), "tcp://envconf:1");
  s.env_conf.reset();
  s.default_config = config_with("tcp://default-file:1", "fairway.toml");
  EXPECT_EQ(*resolve_coordinator_endpoint(s), "tcp://default-file:1");
}

TEST_F(Endpoint, BuiltInDefaultWithoutAnyConfig) {
  EXPECT_EQ(*resolve_coordinator_endpoint(sources()), CoordinatorConfig{}.listen_clients);
}

TEST_F(Endpoint, NamedConfigMustLoad) {
  EndpointSources s = sources();
  s.config_flag = dir.path() + "/missing.toml";
  auto r = resolve_coordinator_endpoint(s);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message.rfind("config " + *s.config_flag + ": ", 0), 0u) << r.error().message;
  s.config_flag = dir.write("bad.toml", "[coordinator\n");
  EXPECT_FALSE(resolve_coordinator_endpoint(s).has_value());
}

}  // namespace
}  // namespace fairway::cli
