// Recovery never drops an accepted job it cannot read (issue 14): a row whose request does
// not decode (a newer Fairway's store, or damage) stops the coordinator from starting, and
// the error names the job; the row is left as it was.
#include <gtest/gtest.h>

#include "coordinator/daemon/job_store.h"
#include "service_test_fixture.h"
#include "shared/wire/codec.h"
#include "store_test_fixture.h"

namespace fairway::daemon {
namespace {

class UnreadableRow : public test_support::ServiceTest {
 protected:
};

TEST_F(UnreadableRow, StopsTheStartNamingTheJobInsteadOfDroppingIt) {
  wire::SubmitRequest r;
  r.program.argv = {"true"};
  r.program.working_dir = "/tmp";
  service_->on_client_frame("c", wire::encode(r), t_, net::PeerCredentials{0, 0, 1});
  service_->end_turn(t_);
  const JobRecord* job = service_->scheduler().job(JobId(1));
  ASSERT_NE(job, nullptr);
  ASSERT_EQ(job->state, JobState::kPending);
  service_.reset();

  exec_sql_on(dir_ + "/" + JobStore::kFileName, "UPDATE jobs SET request = x'c1c2c3' WHERE id = 1");
  auto s = CoordinatorService::open(config_, t_, authenticator());
  ASSERT_FALSE(s) << "the coordinator started without job 1";
  EXPECT_NE(s.error().message.find("job 1's stored request cannot be read"), std::string::npos)
      << s.error().message;
  EXPECT_NE(s.error().message.find("refusing to start"), std::string::npos) << s.error().message;
}

}  // namespace
}  // namespace fairway::daemon
