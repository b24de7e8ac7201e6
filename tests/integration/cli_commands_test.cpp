// The everyday commands (issue 12) through the real CLI, coordinator and agent: priority,
// queue layouts, filtered cancel, the partition summary, and the errors that say what to do.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <ctime>

#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A port nothing listens on right now, for the coordinator's metrics endpoint.
std::uint16_t free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

std::string http_get(std::uint16_t port, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string out;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) {
    const std::string request = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
    (void)::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    char buf[4096];
    ssize_t n = 0;
    while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

class CliCommands : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "runs the CLI through run_cli_as, which needs root";
  }
  // Runs the CLI as ourselves; expects exit status `expected` (-1: any).
  std::string cli(const std::vector<std::string>& args, int expected = 0) {
    std::string out;
    const int rc = run_cli_as(current_user(), args, out);
    if (expected >= 0) {
      EXPECT_EQ(rc, expected) << out;
    }
    return out;
  }
};

TEST_F(CliCommands, PriorityQueueLayoutsFilteredCancelAndPartitionSummary) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto big = submit(wrap("sleep 60", 28));  // the whole node: the next two wait
  ASSERT_TRUE(big);
  ASSERT_TRUE(wait_state(*big, [](JobState s) { return s == JobState::kRunning; }));
  auto a = wrap("true", 4);
  a.spec.name = "sweep";
  auto b = wrap("true", 2);
  b.spec.name = "post";
  auto ida = submit(a);
  auto idb = submit(b);
  ASSERT_TRUE(ida && idb);
  const std::string sa = std::to_string(ida->value()), sb = std::to_string(idb->value());

  ASSERT_TRUE(eventually([&] { return contains(cli({"priority"}), "\n" + sb); }));
  const std::string prio = cli({"priority"});
  EXPECT_TRUE(contains(prio, "JOBID")) << prio;
  EXPECT_TRUE(contains(prio, "PRIORITY")) << prio;
  EXPECT_TRUE(contains(prio, "\n" + sa)) << prio;
  EXPECT_FALSE(contains(prio, "\n" + std::to_string(big->value()) + " ")) << "running jobs do not compete:\n"
                                                                          << prio;
  EXPECT_TRUE(contains(cli({"priority", "--json"}), "\"raw_factors\""));
  EXPECT_TRUE(contains(cli({"priority", "-n"}), "AGE")) << "the terms before their weights";

  const std::string formatted = cli({"queue", "-o", "%i|%j|%t|%C", "--sort=-i", "--noheader"});
  EXPECT_EQ(formatted,
            sb + "|post|PD|2\n" + sa + "|sweep|PD|4\n" + std::to_string(big->value()) + "|it|R|28\n");
  EXPECT_TRUE(contains(cli({"queue", "--start"}), "START_TIME"));
  EXPECT_TRUE(contains(cli({"queue", "-l"}), "TIME_LIMI "));  // cut to its width, as squeue -l shows it
  EXPECT_TRUE(contains(cli({"queue", "-o", "%i %Y"}, 2), "unknown field %Y"));
  const std::string showq = cli({"queue", "--showq"});
  EXPECT_TRUE(contains(showq, "Total Jobs: 3   Active Jobs: 1   Idle Jobs: 2   Blocked Jobs: 0")) << showq;
  EXPECT_TRUE(contains(showq, "28 of 28 Processors Active (100.00%)")) << showq;

  const std::string summary = cli({"nodes", "-s"});
  EXPECT_TRUE(contains(summary, "NODES(A/I/O/T)")) << summary;
  EXPECT_TRUE(contains(summary, "1/0/0/1")) << summary;
  EXPECT_TRUE(contains(summary, "28/0/0/28")) << summary;

  cli({"cancel", "-n", "sweep", "-t", "PD"});
  auto va = wait_state(*ida, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(va);
  EXPECT_EQ(va->state, JobState::kCancelled);
  EXPECT_EQ(job(*idb)->state, JobState::kPending) << "the filter matched only the job named sweep";

  // Holding a running job says what can be held.
  EXPECT_TRUE(contains(cli({"hold", std::to_string(big->value())}, 1), "only pending jobs can be held"));

  cli({"cancel", "-u", current_user()});
  for (JobId id : {*big, *idb}) {
    auto v = wait_state(id, [](JobState s) { return is_terminal(s); });
    ASSERT_TRUE(v);
    EXPECT_EQ(v->state, JobState::kCancelled);
  }
}

TEST_F(CliCommands, ADrainedNodeWithRunningJobsIsDrainingAndShowsItsReason) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto id = submit(wrap("sleep 60"));
  ASSERT_TRUE(id);
  ASSERT_TRUE(wait_state(*id, [](JobState s) { return s == JobState::kRunning; }));
  cli({"drain", "kb01", "--reason", "bad DIMM"});
  std::string nodes = cli({"nodes"});
  EXPECT_TRUE(contains(nodes, "REASON")) << nodes;
  EXPECT_TRUE(contains(nodes, "draining")) << nodes;
  EXPECT_TRUE(contains(nodes, "bad DIMM")) << nodes;
  cli({"cancel", std::to_string(id->value())});
  ASSERT_TRUE(wait_state(*id, [](JobState s) { return is_terminal(s); }));
  ASSERT_TRUE(eventually([&] { return contains(cli({"nodes"}), "drained"); }));
}

TEST_F(CliCommands, DiagSharesPartitionsAndThePrometheusEndpoint) {
  const std::uint16_t port = free_port();
  coordinator_extra_ = "metrics_listen = \"127.0.0.1:" + std::to_string(port) + "\"\n";
  write_config("");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto id = submit(wrap("true"));
  ASSERT_TRUE(id);
  ASSERT_TRUE(wait_state(*id, [](JobState s) { return is_terminal(s); }));

  const std::string diag = cli({"diag"});
  EXPECT_TRUE(contains(diag, "Scheduling passes:")) << diag;
  EXPECT_TRUE(contains(diag, "Nodes:                            up 1")) << diag;
  EXPECT_TRUE(contains(diag, "  AgentRegister")) << diag;
  EXPECT_TRUE(contains(cli({"diag", "--json"}), "\"fairway_pass_duration_seconds\""));

  const std::string part = cli({"show", "partition"});
  EXPECT_TRUE(contains(part, "Nodes: kb01\n")) << part;
  EXPECT_TRUE(contains(part, "Cores: 0/28 allocated\n")) << part;
  EXPECT_TRUE(contains(cli({"show", "partition", "nope"}, 1), "partition 'nope' does not exist"));

  const std::string report = cli({"report", "-S", "now-1hour", "-P"});
  EXPECT_TRUE(contains(report, "default|" + current_user() + "|1|")) << report;
  const std::string shares = cli({"shares"});
  EXPECT_TRUE(contains(shares, "Fair-share algorithm: classic")) << shares;
  EXPECT_TRUE(contains(shares, " default  " + current_user())) << shares;

  // Prometheus scrapes what diag shows, refreshed each second by the coordinator's loop.
  std::string scrape;
  ASSERT_TRUE(eventually([&] {
    scrape = http_get(port, "/metrics");
    return contains(scrape, "fairway_jobs_finished_total 1\n");
  })) << scrape;
  EXPECT_TRUE(contains(scrape, "HTTP/1.1 200 OK")) << scrape;
  EXPECT_TRUE(contains(scrape, "# TYPE fairway_pass_duration_seconds histogram\n")) << scrape;
  EXPECT_TRUE(contains(scrape, "fairway_nodes{state=\"up\"} 1\n")) << scrape;
  EXPECT_TRUE(contains(scrape, "fairway_cores{partition=")) << scrape;
  EXPECT_TRUE(contains(scrape, "# TYPE fairway_backfill_jobs_started_total counter\n")) << scrape;
  EXPECT_TRUE(contains(scrape, "fairway_messages_total{type=\"SubmitRequest\"} 1\n")) << scrape;
}

// Titan's project reservation on a real cluster: the account's --reservation jobs run in
// it, everyone else waits for it to end, and `show reservation` tells its state and use.
TEST_F(CliCommands, AProjectReservationRunsItsJobsAndKeepsOthersOut) {
  const std::int64_t now = std::time(nullptr);
  write_config("[[reservations]]\nname = \"proj-run\"\nstart = " + std::to_string(now - 60) +
               "\nduration = \"02:00:00\"\nnodes = \"ALL\"\naccount = \"default\"\n"
               "cancel_below_use = 0.5\ncancel_after = \"30:00\"\n");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));

  const std::string in =
      cli({"submit", "--parsable", "--reservation=proj-run", "-t", "10", "--wrap", "true"});
  const JobId member(std::stoull(in));
  ASSERT_TRUE(wait_state(member, [](JobState s) { return s == JobState::kCompleted; }));
  EXPECT_TRUE(contains(cli({"show", "job", in.substr(0, in.find('\n'))}), "Reservation: proj-run\n"));

  const std::string out = cli({"submit", "--parsable", "-t", "10", "--wrap", "true"});
  const JobId outsider(std::stoull(out));
  std::string queue;
  ASSERT_TRUE(eventually([&] {
    queue = cli({"queue", "-o", "%i %R"});
    return contains(queue, std::to_string(outsider.value()) + " (") &&
           contains(queue, "ReqNodeNotAvail_Maintenance");
  })) << queue;

  EXPECT_TRUE(contains(cli({"submit", "--reservation=nope", "--wrap", "true"}, 1),
                       "--reservation=nope: no such reservation (reservations: proj-run)"));
  EXPECT_TRUE(contains(cli({"submit", "-A", "physics", "--reservation=proj-run", "--wrap", "true"}, 1),
                       "--reservation=proj-run is for account 'default': submit with -A default"));

  const std::string shown = cli({"show", "reservation"});
  EXPECT_TRUE(contains(shown, "ReservationName: proj-run\nKind: project\nState: active\n")) << shown;
  EXPECT_TRUE(contains(shown, "Account: default\n")) << shown;
  EXPECT_TRUE(contains(shown, "Cores: 0/28 in use by its jobs\n")) << shown;
  EXPECT_TRUE(contains(shown, "Jobs: 0 waiting, 0 running\n")) << shown;
  EXPECT_TRUE(contains(shown, "CancelBelow: 50% of its cores for 00:30:00\n")) << shown;
  EXPECT_TRUE(contains(cli({"show", "reservation", "--json"}), "\"kind\": \"project\""));
  EXPECT_TRUE(contains(cli({"show", "reservation", "nope"}, 1), "reservation 'nope' does not exist"));
}

// SIGHUP (systemctl reload): a new partition applies at once, every job stays as it was
// (the running one keeps running on its node), and a broken file changes nothing.
TEST_F(CliCommands, SighupReloadsPolicyAndKeepsEveryJob) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto running = submit(wrap("sleep 30"));
  auto held = wrap("true");
  held.spec.hold = true;
  auto waiting = submit(held);
  ASSERT_TRUE(running && waiting);
  ASSERT_TRUE(wait_state(*running, [](JobState s) { return s == JobState::kRunning; }));
  EXPECT_TRUE(contains(cli({"show", "partition", "long"}, 1), "partition 'long' does not exist"));

  write_config(
      "[[partitions]]\nname = \"batch\"\ndefault = true\n"
      "[[partitions]]\nname = \"long\"\nmax_time = \"7d\"\n");
  ASSERT_EQ(::kill(coordinator_.pid(), SIGHUP), 0);
  ASSERT_TRUE(eventually([&] {
    return contains(cli({"show", "partition", "long"}, -1), "MaxTime: 7-00:00:00");
  }));
  ASSERT_TRUE(eventually([&] { return contains(cli({"nodes"}), "kb01      mixed"); })) << cli({"nodes"});
  EXPECT_EQ(job(*running)->state, JobState::kRunning) << "re-adopted from its agent, not restarted";
  EXPECT_EQ(job(*waiting)->state, JobState::kHeld);

  std::ofstream(dir_ + "/fairway.toml") << "[[partitions]\nthis is not toml\n";
  ASSERT_EQ(::kill(coordinator_.pid(), SIGHUP), 0);
  ASSERT_TRUE(eventually([&] { return contains(read_file(dir_ + "/coordinator.log"), "reload_failed"); }));
  EXPECT_TRUE(contains(cli({"show", "partition", "long"}), "MaxTime: 7-00:00:00"))
      << "the running config stays";
  cli({"cancel", std::to_string(running->value())});
}

// fairway update job: a waiting job moves to another partition with a shorter limit; a
// running job's shortened limit reaches its node, which ends it as TIMEOUT.
TEST_F(CliCommands, UpdateJobChangesAWaitingJobAndShortensARunningOne) {
  write_config(
      "[[partitions]]\nname = \"batch\"\ndefault = true\n"
      "[[partitions]]\nname = \"quick\"\nmax_time = \"30m\"\n");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto held = wrap("true", 1, Duration::hours(1));
  held.spec.hold = true;
  auto waiting = submit(held);
  auto running = submit(wrap("sleep 60", 1, Duration::minutes(10)));
  ASSERT_TRUE(waiting && running);
  ASSERT_TRUE(wait_state(*running, [](JobState s) { return s == JobState::kRunning; }));
  const std::string w = std::to_string(waiting->value()), r = std::to_string(running->value());

  EXPECT_TRUE(
      contains(cli({"update", "job", w, "Partition=quick"}, 1), "exceeds partition 'quick' max_time"));
  cli({"update", "job", w, "Partition=quick", "TimeLimit=20:00", "JobName=moved"});
  auto v = job(*waiting);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->partition, "quick");
  EXPECT_EQ(v->time_limit, Duration::minutes(20));
  EXPECT_EQ(v->name, "moved");
  EXPECT_EQ(v->state, JobState::kHeld);

  EXPECT_TRUE(
      contains(cli({"update", "job", r, "Partition=quick"}, 1), "only TimeLimit, JobName and Comment"));
  cli({"update", "job", r, "TimeLimit=0:02"});
  auto ended = wait_state(*running, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->state, JobState::kTimeout) << "its node enforced the new, shorter limit";
  EXPECT_LT(*ended->end_time - *ended->start_time, Duration::seconds(30));
}

// scancel --signal: the running job is told, not ended; a waiting job has nothing to tell.
TEST_F(CliCommands, CancelSignalTellsARunningJobWithoutEndingIt) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const std::string marker = dir_ + "/usr1";
  const std::string trapped = dir_ + "/trapped";
  auto id = submit(wrap("trap 'echo got USR1 > " + marker + "; exit 0' USR1; touch " + trapped +
                        "; while true; do sleep 0.1; done"));
  auto held = wrap("true");
  held.spec.hold = true;
  auto waiting = submit(held);
  ASSERT_TRUE(id && waiting);
  ASSERT_TRUE(wait_state(*id, [](JobState s) { return s == JobState::kRunning; }));
  ASSERT_TRUE(eventually([&] { return std::filesystem::exists(trapped); }));  // the trap is set
  EXPECT_TRUE(
      contains(cli({"cancel", "--signal=TERMINATE", std::to_string(id->value())}, 2), "unknown signal"));
  EXPECT_TRUE(contains(cli({"cancel", "-s", "USR1", std::to_string(waiting->value())}, 1),
                       "only a running job can be signalled"));
  cli({"cancel", "--signal", "USR1", std::to_string(id->value())});
  auto v = wait_state(*id, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted) << "the script's trap ended it, with its own exit code";
  EXPECT_EQ(read_file(marker), "got USR1\n");
}

TEST_F(CliCommands, NoCoordinatorSaysWhereToPointTheCli) {
  std::string out;
  const int rc = run_cli_as(current_user(), {"queue"}, out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_TRUE(contains(out, "(socket missing): is fairway-coordinator running? set FAIRWAY_COORDINATOR"))
      << out;
}

}  // namespace
}  // namespace fairway::integration
