// A project reservation cancelled for low use stays cancelled across a coordinator
// restart, and its account is charged exactly what it was before (issue 8, Titan; issue 9:
// what survives a crash). Synchronous, fake time.
#include <gtest/gtest.h>

#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon {
namespace {

constexpr std::int64_t kT0 = 1'700'000'000;

class ProjectReservationRestart : public test_support::CoordinatorFixture {
 protected:
  void open() {
    CoordinatorFixture::open(
        "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 8\n"
        "[[accounts]]\nname = \"climate\"\nusers = [\"root\"]\n"
        "[fairshare]\nhalf_life = \"100000-00:00:00\"\n"
        "[[reservations]]\nname = \"climate-run\"\nstart = " +
        std::to_string(kT0 + 3600) +
        "\nduration = \"10:00:00\"\nnodes = \"n1\"\naccount = \"climate\"\n"
        "cancel_below_use = 0.5\ncancel_after = \"30:00\"\n");
    if (HasFatalFailure()) return;
    register_node("n1", 8, {}, false);
  }
  // A held job (its association shows the account's usage); the reply's error if refused.
  std::variant<JobId, std::string> submit(const std::string& reservation = {}) {
    wire::SubmitRequest r = request();
    r.spec.account = "climate";
    r.spec.hold = reservation.empty();
    r.spec.reservation = reservation;
    r.spec.time_limit = Duration::minutes(10);
    return try_submit(r);
  }
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
