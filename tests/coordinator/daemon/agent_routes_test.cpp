// AgentRoutes: a node's frames go to the connection its key registered on; a newer
// registration of the key replaces it for good; a routing id another key speaks on
// no longer reaches the node that held it.
#include "coordinator/daemon/agent_routes.h"

#include <gtest/gtest.h>

namespace fairway::daemon {
namespace {

using V = AgentRoutes::Verdict;

TEST(AgentRoutes, AKeysFirstConnectionIsItsRouteWhateverItSends) {
  AgentRoutes r;
  EXPECT_FALSE(r.route_of("n1"));
  EXPECT_EQ(r.heard("n1", "n1.aa", false).verdict, V::kServe);  // a heartbeat after our restart
  EXPECT_EQ(r.route_of("n1"), "n1.aa");
  EXPECT_EQ(r.heard("n1", "n1.aa", true).verdict, V::kServe);
  EXPECT_EQ(r.route_of("n1"), "n1.aa");
}

TEST(AgentRoutes, ANewConnectionIsServedOnlyOnceItRegistersAndThenReplacesTheOldOne) {
  AgentRoutes r;
  (void)r.heard("n1", "n1.aa", true);
  EXPECT_EQ(r.heard("n1", "n1.bb", false).verdict, V::kRegister);
  EXPECT_EQ(r.route_of("n1"), "n1.aa") << "a heartbeat does not move the node";
  const auto d = r.heard("n1", "n1.bb", true);
  EXPECT_EQ(d.verdict, V::kReplaced);
  EXPECT_EQ(d.replaced_route, "n1.aa");
  EXPECT_EQ(r.route_of("n1"), "n1.bb");
  // The old one is closed: neither its heartbeats nor a registration bring it back.
  EXPECT_EQ(r.heard("n1", "n1.aa", false).verdict, V::kSuperseded);
  EXPECT_EQ(r.heard("n1", "n1.aa", true).verdict, V::kSuperseded);
  EXPECT_EQ(r.route_of("n1"), "n1.bb");
}

TEST(AgentRoutes, KeysAreKeptApart) {
  AgentRoutes r;
  (void)r.heard("n1", "n1.aa", true);
  (void)r.heard("n2", "n1", true);  // n2's key on a connection that calls itself "n1"
  EXPECT_EQ(r.route_of("n1"), "n1.aa");
  EXPECT_EQ(r.route_of("n2"), "n1");
}

TEST(AgentRoutes, ARoutingIdAnotherKeySpeaksOnNoLongerReachesItsNode) {
  AgentRoutes r;
  (void)r.heard("n1", "n1", true);  // an older agent that names its connection itself
  EXPECT_FALSE(r.forget_reused("n1", "n1")) << "its own key: nothing changed";
  EXPECT_EQ(r.forget_reused("n1", "n2"), "n1");
  EXPECT_FALSE(r.route_of("n1")) << "n1's frames must not go to n2's connection";
  EXPECT_FALSE(r.forget_reused("n1", "n2"));
  // n1's agent, back on a connection of its own, is its route again.
  EXPECT_EQ(r.heard("n1", "n1.cc", true).verdict, V::kServe);
  EXPECT_EQ(r.route_of("n1"), "n1.cc");
}

TEST(AgentRoutes, OnlyTheNewestRetiredConnectionsAreRemembered) {
  AgentRoutes r;
  (void)r.heard("n1", "r0", true);
  for (std::size_t i = 1; i <= AgentRoutes::kRetiredKept + 1; ++i) {
    EXPECT_EQ(r.heard("n1", "r" + std::to_string(i), true).verdict, V::kReplaced);
  }
  // r0 is forgotten: it speaks as a new connection would; r1 is still known closed.
  EXPECT_EQ(r.heard("n1", "r0", false).verdict, V::kRegister);
  EXPECT_EQ(r.heard("n1", "r2", false).verdict, V::kSuperseded);
}

}  // namespace
}  // namespace fairway::daemon
