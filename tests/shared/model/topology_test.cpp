#include "shared/model/topology.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

TEST(Topology, UniformBuildsSocketsCoresAndGpus) {
  NodeTopology t = NodeTopology::uniform("b-cn0101", 2, 14, 2, "v100", 2);
  EXPECT_EQ(t.name, "b-cn0101");
  ASSERT_EQ(t.sockets.size(), 2u);
  for (const auto& s : t.sockets) {
    EXPECT_EQ(s.cores, 14);
    EXPECT_EQ(s.threads_per_core, 2);
  }
  EXPECT_EQ(t.total_cores(), 28);
  ASSERT_EQ(t.total_gpus(), 4);
  // GPUs are listed socket by socket, each attached to its own socket.
  EXPECT_EQ(t.gpus[0].socket, 0);
  EXPECT_EQ(t.gpus[1].socket, 0);
  EXPECT_EQ(t.gpus[2].socket, 1);
  EXPECT_EQ(t.gpus[3].socket, 1);
  for (const auto& g : t.gpus) EXPECT_EQ(g.type, "v100");
  EXPECT_EQ(t.memory_mb, 0);
  EXPECT_TRUE(t.features.empty());
}

TEST(Topology, UniformDefaultsToNoGpusAndOneThread) {
  NodeTopology t = NodeTopology::uniform("cn1", 1, 8);
  ASSERT_EQ(t.sockets.size(), 1u);
  EXPECT_EQ(t.sockets[0].cores, 8);
  EXPECT_EQ(t.sockets[0].threads_per_core, 1);
  EXPECT_EQ(t.total_cores(), 8);
  EXPECT_EQ(t.total_gpus(), 0);
  EXPECT_TRUE(t.gpus.empty());
}

TEST(Topology, CoresAreNumberedSocketBySocket) {
  NodeTopology t = NodeTopology::uniform("cn1", 4, 6);
  EXPECT_EQ(t.total_cores(), 24);
  EXPECT_EQ(t.first_core_of_socket(0), 0);
  EXPECT_EQ(t.first_core_of_socket(1), 6);
  EXPECT_EQ(t.first_core_of_socket(2), 12);
  EXPECT_EQ(t.first_core_of_socket(3), 18);
  EXPECT_EQ(t.first_core_of_socket(4), 24);  // one past the last socket: total cores
  for (std::int32_t c = 0; c < t.total_cores(); ++c) {
    EXPECT_EQ(t.socket_of_core(c), c / 6) << "core " << c;
  }
}

TEST(Topology, SocketOfCoreOnUnevenSockets) {
  NodeTopology t;
  t.name = "odd";
  t.sockets = {{4, 1}, {8, 2}, {2, 1}};
  EXPECT_EQ(t.total_cores(), 14);
  EXPECT_EQ(t.first_core_of_socket(1), 4);
  EXPECT_EQ(t.first_core_of_socket(2), 12);
  EXPECT_EQ(t.socket_of_core(0), 0);
  EXPECT_EQ(t.socket_of_core(3), 0);
  EXPECT_EQ(t.socket_of_core(4), 1);
  EXPECT_EQ(t.socket_of_core(11), 1);
  EXPECT_EQ(t.socket_of_core(12), 2);
  EXPECT_EQ(t.socket_of_core(13), 2);
  EXPECT_EQ(t.socket_of_core(14), -1);  // past the last core
  EXPECT_EQ(t.socket_of_core(1000), -1);
}

TEST(Topology, FirstCoreAndSocketOfCoreAgree) {
  NodeTopology t = NodeTopology::uniform("cn1", 3, 5, 1, "a100");
  for (std::int32_t s = 0; s < 3; ++s) {
    std::int32_t first = t.first_core_of_socket(s);
    EXPECT_EQ(t.socket_of_core(first), s);
    EXPECT_EQ(t.socket_of_core(first + 4), s);
    EXPECT_EQ(t.gpus[static_cast<std::size_t>(s)].socket, s);
  }
}

}  // namespace
}  // namespace fairway
