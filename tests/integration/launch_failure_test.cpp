// A launch the node cannot carry out reaches the user with its reason, not as a bare
// FAILED (issue 9); a launch that hangs on the node (an output file on a hung NFS mount,
// here a FIFO nobody reads) holds up that job only (issue 14).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

TEST_F(Cluster, ALaunchThatFailsOnTheNodeSaysWhyInShowJob) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto missing_dir = wrap("true");
  missing_dir.program.working_dir = dir_ + "/no-such-dir";
  auto unwritable = wrap("true");
  unwritable.program.stdout_path = "/proc/fairway-cannot-write-here/out";
  for (const auto& [req, why] : {std::pair{missing_dir, std::string("no-such-dir")},
                                 std::pair{unwritable, std::string("/proc/fairway-cannot-write-here/out")}}) {
    auto id = submit(req);
    ASSERT_TRUE(id);
    auto v = wait_state(*id, [](JobState s) { return is_terminal(s); });
    ASSERT_TRUE(v);
    EXPECT_EQ(v->state, JobState::kFailed);
    EXPECT_NE(v->state_reason.find("kb01"), std::string::npos) << v->state_reason;
    EXPECT_NE(v->state_reason.find(why), std::string::npos) << v->state_reason;
    std::string out;
    if (geteuid() == 0) {
      ASSERT_EQ(run_cli_as("root", {"show", "job", std::to_string(id->value())}, out), 0) << out;
      EXPECT_NE(out.find("StateReason"), std::string::npos) << out;
      EXPECT_NE(out.find(why), std::string::npos) << out;
    }
  }
}

TEST_F(Cluster, AHungLaunchNeitherStopsTheNodeNorLosesItsCancel) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const std::string fifo = dir_ + "/hung.out";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);
  auto hung = wrap("echo late");
  hung.program.stdout_path = fifo;
  auto stuck = submit(hung);
  ASSERT_TRUE(stuck);
  ASSERT_TRUE(wait_state(*stuck, [](JobState s) { return s == JobState::kRunning; }));
  // While its launch hangs (the FIFO's open blocks until a reader comes), the agent's loop
  // goes on: heartbeats keep coming (each a second apart here; a blocked loop sends none,
  // and the node goes down after 5 s), and another job starts and ends on the node.
  const auto heard = [&] {
    const auto ns = nodes();
    return ns.empty() || !ns.front().last_heartbeat ? Time::from_seconds(0) : *ns.front().last_heartbeat;
  };
  const Time hanging_since = heard();
  ASSERT_TRUE(
      eventually([&] { return heard() >= hanging_since + Duration::seconds(3); }, std::chrono::seconds(20)))
      << "no heartbeat from the node while a launch hangs";
  auto other = submit(wrap("true"));
  ASSERT_TRUE(other);
  auto done = wait_state(*other, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(done);
  EXPECT_EQ(done->state, JobState::kCompleted);
  ASSERT_TRUE(wait_nodes_up(1));
  auto v = job(*stuck);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kRunning);  // as far as anyone knows: its launch is under way

  // Cancelled while its launch hangs: the cancel waits for the launch, then ends it.
  auto cancelled = call(wire::JobControl{wire::JobAction::kCancel, {*stuck}, ""});
  ASSERT_TRUE(cancelled);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  auto end = wait_state(*stuck, [](JobState s) { return is_terminal(s); });
  ::close(reader);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->state, JobState::kCancelled);
}

}  // namespace
}  // namespace fairway::integration
