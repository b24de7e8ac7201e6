// Nothing runs twice (issue 9): an agent that loses its coordinator stops its jobs once its
// lease runs out, and the coordinator starts them again only after that, so the two runs
// of a job never overlap.
#include <sstream>

#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

struct Run {
  std::int64_t start = 0, end = 0;  // ns; end 0: still running (or killed without a trace)
};

// "start NS" / "end NS" lines of the job's runs, appended by the job itself.
std::vector<Run> runs_in(const std::string& log) {
  std::vector<Run> runs;
  std::istringstream in(log);
  std::string what;
  std::int64_t ns = 0;
  while (in >> what >> ns) {
    if (what == "start") runs.push_back({ns, 0});
    if (what == "end" && !runs.empty()) runs.back().end = ns;
  }
  return runs;
}

TEST_F(Cluster, AnAgentCutOffFromItsCoordinatorStopsItsJobsBeforeTheyRunElsewhere) {
  // A short lease and timeout, set in the fixture's own tables.
  {
    std::string cfg = read_file(dir_ + "/fairway.toml");
    cfg.replace(cfg.find("kill_grace = 1\n"), 15, "kill_grace = 1\ncoordinator_lease = 3\n");
    cfg.replace(cfg.find("heartbeat_timeout = 5"), 21, "heartbeat_timeout = 2");
    std::ofstream(dir_ + "/fairway.toml") << cfg;
  }
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const std::string log = dir_ + "/runs.log";
  auto req = wrap("echo start $(date +%s%N) >> " + log + "; trap 'echo end $(date +%s%N) >> " + log +
                  "; exit 143' TERM; while :; do sleep 0.1; done");
  auto id = submit(req);
  ASSERT_TRUE(id);
  ASSERT_TRUE(eventually([&] { return runs_in(read_file(log)).size() == 1; }));

  // Cut the agent off: the coordinator stops answering for longer than the lease.
  kill(coordinator_.pid(), SIGSTOP);
  const bool fenced = eventually([&] { return runs_in(read_file(log)).at(0).end != 0; }, 10000ms);
  kill(coordinator_.pid(), SIGCONT);
  ASSERT_TRUE(fenced) << "the agent did not stop its job without its coordinator";
  EXPECT_NE(read_file(dir_ + "/agent-kb01.log").find("self_fencing"), std::string::npos);

  // The coordinator runs it again, once: never overlapping the first run.
  ASSERT_TRUE(eventually([&] { return runs_in(read_file(log)).size() == 2; }, 20000ms))
      << read_file(dir_ + "/coordinator.log");
  const auto runs = runs_in(read_file(log));
  EXPECT_LT(runs[0].end, runs[1].start);
  auto v = job(*id);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kRunning);
  EXPECT_EQ(v->requeue_count, 1);
}

}  // namespace
}  // namespace fairway::integration
