// A full disk under the coordinator's state dir (issue 9): it keeps serving queries,
// refuses new work with a clear error, loses nothing it acknowledged, and takes work
// again once space is back. The state dir is a small tmpfs (root and mount(2) needed;
// skipped otherwise).
#include <sys/mount.h>

#include <fstream>

#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

class FullDisk : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    state_ = dir_ + "/state";
    std::filesystem::create_directories(state_);
    if (geteuid() != 0 || ::mount("tmpfs", state_.c_str(), "tmpfs", 0, "size=3m,mode=0700") != 0) {
      GTEST_SKIP() << "needs root and mount(2) for a small tmpfs state dir";
    }
    mounted_ = true;
  }
  void TearDown() override {
    coordinator_.stop(SIGKILL);
    if (mounted_) ::umount2(state_.c_str(), MNT_DETACH);
    Cluster::TearDown();
  }
  // Fills the tmpfs to the last byte.
  void fill() {
    std::ofstream f(state_ + "/filler", std::ios::binary);
    const std::string chunk(4096, 'x');
    while (f.write(chunk.data(), static_cast<std::streamsize>(chunk.size()))) {
    }
  }
  wire::SubmitRequest big(int n) {
    auto r = wrap("true");
    r.spec.hold = true;
    r.program.script = "#!/bin/sh\n# " + std::string(200000, static_cast<char>('a' + n % 26)) + "\ntrue\n";
    r.program.argv.clear();
    return r;
  }
  Result<wire::Message> try_submit(const wire::SubmitRequest& r) { return call(r, 2000ms); }

  std::string state_;
  bool mounted_ = false;
};

TEST_F(FullDisk, QueriesGoOnNewWorkIsRefusedAndWorkResumesWhenSpaceIsBack) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto kept = submit(big(0));
  ASSERT_TRUE(kept);
  fill();
  // Submissions until one is refused for the store (the first that fails may get no answer:
  // its turn was not committed, so nothing of it is acknowledged).
  std::string refusal;
  for (int i = 1; i < 40 && refusal.empty(); ++i) {
    auto r = try_submit(big(i));
    if (r) {
      if (auto* e = std::get_if<wire::ErrorReply>(&*r)) {
        EXPECT_EQ(e->code, ErrorCode::kUnavailable) << e->message;
        refusal = e->message;
      }
    }
  }
  ASSERT_FALSE(refusal.empty()) << "the full disk never showed";
  EXPECT_NE(refusal.find("cannot write its job store"), std::string::npos) << refusal;
  // Queries still work, and every acknowledged job is there.
  auto v = job(*kept);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kHeld);
  // Space comes back: within a few probes the coordinator takes work again.
  std::filesystem::remove(state_ + "/filler");
  std::optional<JobId> after;
  ASSERT_TRUE(eventually(
      [&] {
        auto r = try_submit(big(50));
        if (r && std::holds_alternative<wire::SubmitReply>(*r)) after = std::get<wire::SubmitReply>(*r).job;
        return after.has_value();
      },
      20000ms));
  EXPECT_TRUE(job(*kept));
  EXPECT_TRUE(job(*after));
}

}  // namespace
}  // namespace fairway::integration
