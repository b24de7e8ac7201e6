// Recovery of a running job the core cannot take back: a store whose two running rows hold
// the same cores (it disagrees with itself) restores the first; the lifecycle ends the
// other as node_fail (NotRestored), shown with why and no run, its row left as found.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/job_store.h"
#include "shared/wire/codec.h"
#include "tests/support/test_authenticators.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

using RootOnly = test_support::RootOnlyAuthenticator;

std::vector<wire::Message> replies(CoordinatorService& s, Time t) {
  std::vector<wire::Message> out;
  for (const Outgoing& o : s.end_turn(t)) {
    if (auto m = wire::decode(o.frame); m && o.channel == Channel::kClients) out.push_back(std::move(*m));
  }
  return out;
}

JobId submit_two_cores(CoordinatorService& s, Time t) {
  wire::SubmitRequest r;
  r.program.argv = {"true"};
  r.program.working_dir = "/tmp";
  r.spec.resources.cores = 2;
  s.on_client_frame("c", wire::encode(r), t, net::PeerCredentials{0, 0, 1});
  for (const wire::Message& m : replies(s, t)) {
    if (const auto* reply = std::get_if<wire::SubmitReply>(&m)) return reply->job;
  }
  return JobId();
}

TEST(Recovery, ARunningRowOnCoresAnotherHoldsEndsAsNodeFailAndItsRowIsKept) {
  std::string tmpl = (fs::temp_directory_path() / "fw-recovery-XXXXXX").string();
  const std::string dir = mkdtemp(tmpl.data());
  auto config = parse_config(
      "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n"
      "[coordinator]\nstate_dir = \"" +
          dir + "\"\n",
      "test");
  ASSERT_TRUE(config) << config.error().message;
  Time t = Time::from_seconds(1'700'000'000);
  JobId first, second;
  {
    auto s = CoordinatorService::open(*config, t, std::make_unique<RootOnly>());
    ASSERT_TRUE(s) << s.error().message;
    wire::AgentRegister reg{"n1", "test", NodeTopology::uniform("n1", 1, 4), {}, ""};
    (*s)->on_agent_frame("n1", wire::encode(reg), t, "n1");
    first = submit_two_cores(**s, t);
    second = submit_two_cores(**s, t);
    (void)(*s)->end_turn(t);
    ASSERT_EQ((*s)->scheduler().job(first)->state, JobState::kRunning);
    ASSERT_EQ((*s)->scheduler().job(second)->state, JobState::kRunning);
  }
  // The second's row now names the first's cores.
  StoredJob kept;
  {
    auto store = JobStore::open(dir);
    ASSERT_TRUE(store) << store.error().message;
    std::vector<StoredJob> rows;
    ASSERT_TRUE((*store)->scan_jobs([&](StoredJob&& row) -> Status {
      rows.push_back(std::move(row));
      return ok_status();
    }));
    ASSERT_EQ(rows.size(), 2U);
    rows[1].allocation = rows[0].allocation;
    ASSERT_TRUE((*store)->begin());
    ASSERT_TRUE((*store)->update_job(rows[1]));
    ASSERT_TRUE((*store)->commit());
    kept = rows[1];
  }
  t = t + Duration::seconds(1);
  {
    auto s = CoordinatorService::open(*config, t, std::make_unique<RootOnly>());
    ASSERT_TRUE(s) << s.error().message;
    ASSERT_NE((*s)->scheduler().job(first), nullptr);
    EXPECT_EQ((*s)->scheduler().job(first)->state, JobState::kRunning);
    EXPECT_EQ((*s)->scheduler().job(second), nullptr);  // never taken back by the core
    wire::JobQuery q;
    q.jobs = {second};
    q.include_finished = true;
    (*s)->on_client_frame("c", wire::encode(q), t, net::PeerCredentials{0, 0, 1});
    bool seen = false;
    for (const wire::Message& m : replies(**s, t)) {
      const auto* reply = std::get_if<wire::JobQueryReply>(&m);
      if (reply == nullptr) continue;
      ASSERT_EQ(reply->jobs.size(), 1U);
      const wire::JobView& v = reply->jobs.front();
      seen = true;
      EXPECT_EQ(v.state, JobState::kNodeFail);
      EXPECT_TRUE(v.state_reason.starts_with("could not be restored: ")) << v.state_reason;
      EXPECT_EQ(v.end_time, t);
      EXPECT_FALSE(v.start_time);  // what it held is the first's
      EXPECT_TRUE(v.allocation.empty());
    }
    EXPECT_TRUE(seen);
  }
  // Nothing was stored about it: the next start reads the same row.
  auto store = JobStore::open(dir);
  ASSERT_TRUE(store) << store.error().message;
  ASSERT_TRUE((*store)->scan_jobs([&](StoredJob&& row) -> Status {
    if (row.id == second) {
      EXPECT_EQ(row, kept);
    }
    return ok_status();
  }));
  store->reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fairway::daemon
