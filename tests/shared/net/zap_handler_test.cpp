#include "shared/net/zap_handler.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "shared/net/curve_keys.h"

namespace fairway::net {
namespace {

using namespace std::chrono_literals;

// Over real sockets: a client the decision admits arrives tagged with the user id it
// chose; one it refuses never gets a frame through.
TEST(Zap, AdmittedClientsCarryTheirUserIdAndRefusedOnesGetNothingThrough) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "fw-zap-XXXXXX").string();
  const std::string dir = mkdtemp(tmpl.data());
  auto server = *generate_curve_keypair();
  auto listed = *generate_curve_keypair();
  auto rogue = *generate_curve_keypair();
  int refused = 0;
  NetContext ctx;
  auto zap = ZapHandler::bind(ctx, [&](const ZapRequest& r) -> std::optional<std::string> {
    if (r.mechanism == "CURVE" && r.client_key == listed.public_z85) return "node-a";
    ++refused;
    return std::nullopt;
  });
  ASSERT_TRUE(zap);
  const std::string ep = "ipc://" + dir + "/s.sock";
  CurveServer sc{server.secret_z85, "agents"};
  auto router = MessageSocket::bind_router(ctx, ep, &sc);
  ASSERT_TRUE(router);
  CurveClient bad_keys{server.public_z85, rogue.public_z85, rogue.secret_z85};
  auto bad = MessageSocket::connect_dealer(ctx, ep, "rogue", &bad_keys);
  ASSERT_TRUE(bad);
  ASSERT_TRUE(bad->send("from rogue"));
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (refused == 0 && std::chrono::steady_clock::now() < end) {
    zap->serve();
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(refused, 1);

  CurveClient good_keys{server.public_z85, listed.public_z85, listed.secret_z85};
  auto good = MessageSocket::connect_dealer(ctx, ep, "node-a", &good_keys);
  ASSERT_TRUE(good);
  ASSERT_TRUE(good->send("from a"));
  std::optional<Inbound> in;
  while (!in && std::chrono::steady_clock::now() < end) {
    zap->serve();
    in = router->receive();
    std::this_thread::sleep_for(1ms);
  }
  ASSERT_TRUE(in);
  EXPECT_EQ(in->frame, "from a");
  EXPECT_EQ(in->peer, "node-a");
  EXPECT_EQ(in->authenticated_id, "node-a");
  EXPECT_FALSE(router->receive()) << "the refused client's frame arrived";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fairway::net
