// A project reservation cancelled for low use stays cancelled across a coordinator
// restart, and its account is charged exactly what it was before (issue 8, Titan; issue 9:
// what survives a crash). Synchronous, fake time.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "coordinator/daemon/coordinator_service.h"
#include "root_authenticator.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kT0 = 1'700'000'000;

class ProjectReservationRestart : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fw-resv-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
  }
  void TearDown() override {
    service_.reset();
    fs::remove_all(dir_);
  }
  void open() {
    service_.reset();  // a crash: memory is gone, the store stays
    auto config = parse_config(
        "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 8\n"
        "[[accounts]]\nname = \"climate\"\nusers = [\"root\"]\n"
        "[fairshare]\nhalf_life = \"100000-00:00:00\"\n"
        "[[reservations]]\nname = \"climate-run\"\nstart = " +
            std::to_string(kT0 + 3600) +
            "\nduration = \"10:00:00\"\nnodes = \"n1\"\naccount = \"climate\"\n"
            "cancel_below_use = 0.5\ncancel_after = \"30:00\"\n"
            "[coordinator]\nstate_dir = \"" +
            dir_ + "\"\n",
        "test");
    ASSERT_TRUE(config) << config.error().message;
    auto s = CoordinatorService::open(*config, t_, std::make_unique<test_support::RootOnlyAuthenticator>());
    ASSERT_TRUE(s) << s.error().message;
    service_ = std::move(*s);
    wire::AgentRegister reg{"n1", "test", NodeTopology::uniform("n1", 1, 8), {}, ""};
    service_->on_agent_frame("n1", wire::encode(reg), t_, "n1");
    (void)service_->end_turn(t_, false);
  }
  // A held job (its association shows the account's usage); the reply's error if refused.
  std::variant<JobId, std::string> submit(const std::string& reservation = {}) {
    wire::SubmitRequest r;
    r.client_token = "t" + std::to_string(++token_);
    r.spec.account = "climate";
    r.spec.hold = reservation.empty();
    r.spec.reservation = reservation;
    r.spec.time_limit = Duration::minutes(10);
    r.program.argv = {"true"};
    r.program.working_dir = "/tmp";
    service_->on_client_frame("c", wire::encode(r), t_, net::PeerCredentials{0, 0, 1});
    for (const Outgoing& o : service_->end_turn(t_)) {
      auto m = wire::decode(o.frame);
      if (m && std::holds_alternative<wire::SubmitReply>(*m)) return std::get<wire::SubmitReply>(*m).job;
      if (m && std::holds_alternative<wire::ErrorReply>(*m)) return std::get<wire::ErrorReply>(*m).message;
    }
    return std::string("no reply");
  }
  double usage_of(JobId held) const {
    const JobRecord* r = service_->scheduler().job(held);
    EXPECT_NE(r, nullptr);
    return r ? service_->scheduler().fair_share().account_usage(r->association, t_) : -1;
  }

  std::string dir_;
  Time t_ = Time::from_seconds(kT0);
  std::unique_ptr<CoordinatorService> service_;
  int token_ = 0;
};

TEST_F(ProjectReservationRestart, ACancelledReservationStaysCancelledAndChargedAsItWas) {
  open();
  const JobId marker = std::get<JobId>(submit());
  t_ = Time::from_seconds(kT0 + 3600);  // it begins, and nobody uses it
  (void)submit();
  t_ = t_ + Duration::minutes(31);
  (void)submit();  // a pass: under half used for 31 minutes
  const ProjectReservationState& r = service_->scheduler().project_reservations()[0];
  ASSERT_TRUE(r.cancelled_at);
  EXPECT_EQ(*r.cancelled_at, t_);
  const double charged = usage_of(marker);
  EXPECT_NEAR(charged, 8.0 * 31 * 60, 1.0);  // 8 cores from its start to its cancellation

  open();  // the coordinator crashes and comes back at the same instant
  const ProjectReservationState& again = service_->scheduler().project_reservations()[0];
  ASSERT_TRUE(again.cancelled_at);
  EXPECT_EQ(*again.cancelled_at, t_);
  EXPECT_FALSE(again.charging);
  EXPECT_NEAR(usage_of(marker), charged, 1e-6);
  t_ = t_ + Duration::hours(1);
  EXPECT_NEAR(usage_of(marker), charged, 0.05);  // no charge after it (only the decay)
  auto refused = submit("climate-run");
  ASSERT_TRUE(std::holds_alternative<std::string>(refused));
  EXPECT_NE(std::get<std::string>(refused).find("climate-run was cancelled at"), std::string::npos)
      << std::get<std::string>(refused);
}

TEST_F(ProjectReservationRestart, AnActiveReservationIsChargedFromItsStartAfterARestart) {
  open();
  const JobId marker = std::get<JobId>(submit());
  t_ = Time::from_seconds(kT0 + 3600);
  ASSERT_TRUE(std::holds_alternative<JobId>(submit("climate-run")));  // keeps it in use
  t_ = t_ + Duration::minutes(20);
  open();
  EXPECT_TRUE(service_->scheduler().project_reservations()[0].charging);
  EXPECT_NEAR(usage_of(marker), 8.0 * 20 * 60, 1.0);
}

}  // namespace
}  // namespace fairway::daemon
