// The layering check finds what it exists to find: a core reaching the wire, an agent
// reaching the coordinator, ZeroMQ outside shared/net, and a directory in no layer.
#include "include_layers.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <fstream>

namespace fairway::layering {
namespace {

namespace fs = std::filesystem;

class LayeringTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("layers." + std::to_string(getpid()));
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  std::string only_violation() {
    const auto v = check_tree(root_);
    if (v.size() != 1) return "expected one violation, got " + std::to_string(v.size());
    return v[0].file + ":" + std::to_string(v[0].line) + ": " + v[0].what;
  }
  fs::path root_;
};

TEST_F(LayeringTest, AllowedIncludesPass) {
  write("coordinator/core/a.h", "#include \"shared/model/x.h\"\n#include <vector>\n#include \"a2.h\"\n");
  write("shared/net/s.cpp", "#include <zmq.h>\n#include \"shared/wire/codec.h\"\n");
  EXPECT_TRUE(check_tree(root_).empty());
}

TEST_F(LayeringTest, CoreIncludingWireIsCaught) {
  write("coordinator/core/a.cpp", "// x\n#include \"shared/wire/codec.h\"\n");
  EXPECT_EQ(only_violation(),
            "coordinator/core/a.cpp:2: coordinator/core may not include shared/wire "
            "(\"shared/wire/codec.h\")");
}

TEST_F(LayeringTest, AgentIncludingCoordinatorIsCaught) {
  write("agent/daemon/m.cpp", "#include \"coordinator/core/scheduler.h\"\n");
  EXPECT_NE(only_violation().find("agent/daemon may not include coordinator/core"), std::string::npos);
}

TEST_F(LayeringTest, ClientIncludingCoordinatorIsCaught) {
  write("client/fairway/c.cpp", "#include \"coordinator/daemon/job_store.h\"\n");
  EXPECT_NE(only_violation().find("client/fairway may not include coordinator/daemon"), std::string::npos);
}

TEST_F(LayeringTest, ZeroMqOutsideNetIsCaught) {
  write("coordinator/daemon/m.cpp", "#include <zmq.hpp>\n");
  EXPECT_NE(only_violation().find("<zmq.hpp> belongs to shared/net, not coordinator/daemon"),
            std::string::npos);
}

TEST_F(LayeringTest, NewDirectoryMustJoinTheTable) {
  write("shared/gadgets/g.h", "int g();\n");
  EXPECT_NE(only_violation().find("shared/gadgets:0: directory is in no layer"), std::string::npos);
}

TEST(Layering, TheProjectKeepsItsLayers) {
  for (const auto& v : check_tree(FAIRWAY_SOURCE_DIR)) {
    ADD_FAILURE() << v.file << ":" << v.line << ": " << v.what;
  }
}

}  // namespace
}  // namespace fairway::layering
