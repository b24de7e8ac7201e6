// Slurm's commands on Fairway against what the real Slurm 22.05 printed for the same jobs:
// tests/fixtures/slurm-golden/scenario.sh runs here through Fairway's front-ends and its
// captures are compared with expected/ (made by capture.sh on ../shared/slurm-anchor).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cluster_fixture.h"

namespace fairway::integration {
namespace {

const std::string kGolden = std::string(FAIRWAY_SOURCE_DIR) + "/tests/fixtures/slurm-golden";

std::string trim_line(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// What may differ between two runs of the scenario, on any scheduler: the working
// directory, wall-clock times and durations (digits become 9s, so widths still count),
// the submitting host and session, the priority number (its scale is each scheduler's
// own), and which of Slurm's two schedulers started a job (main loop or backfill: timing). Job ids are not
// normalized: Fairway's first_job_id makes them equal.
std::string normalize(std::string text, const std::string& workdir) {
  for (auto at = text.find(workdir); !workdir.empty() && at != std::string::npos;
       at = text.find(workdir, at)) {
    text.replace(at, workdir.size(), "{dir}");
  }
  static const std::regex kAllocNode(R"(AllocNode:Sid=\S+)");
  static const std::regex kPriority(R"(Priority=\d+)");
  // ctime's date (squeue -l, sinfo -l): "Thu Nov 26 07:55:16 2026".
  static const std::regex kCtime(R"([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})");
  // Which of Slurm's schedulers started the job (its main loop or its backfill pass).
  static const std::regex kScheduler(R"(Scheduler=(Main|Backfill))");
  text = std::regex_replace(text, kAllocNode, "AllocNode:Sid={host}:{sid}");
  text = std::regex_replace(text, kPriority, "Priority={priority}");
  text = std::regex_replace(text, kCtime, "Www Mmm 99 99:99:99 9999");
  text = std::regex_replace(text, kScheduler, "Scheduler=Main");
  // Where the step's srun runs (Fairway does not know srun's host and pid).
  static const std::regex kSrunHost(R"(SrunHost:Pid=\S+)");
  text = std::regex_replace(text, kSrunHost, "SrunHost:Pid={host}:{pid}");
  // Dates anywhere; durations after a blank or '=' (squeue's TIME, RunTime=), not after
  // '|' where sacct -P's ExitCode 0:15 or squeue's %l would read as one.
  static const std::regex kTime(
      R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d|(^|[ =])(\d+-)?\d{1,2}(:\d\d){1,2}(?=[ \n]|$))");
  std::string out;
  std::size_t from = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kTime); it != std::sregex_iterator(); ++it) {
    out.append(text, from, static_cast<std::size_t>(it->position()) - from);
    std::string t = it->str();
    std::replace_if(
        t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }, '9');
    out += t;
    from = static_cast<std::size_t>(it->position() + it->length());
  }
  out.append(text, from);
  return out;
}

// The kind of a JSON value, numbers as one (Slurm writes 2.0 where a count is a float).
std::string kind(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "boolean";
  if (v.is_number()) return "number";
  if (v.is_string()) return "string";
  return v.is_array() ? "array" : "object";
}

// The keys of an object, in order.
std::vector<std::string> keys_of(const nlohmann::ordered_json& o) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : o.items()) keys.push_back(k);
  return keys;
}

// squeue --json and sacct --json: the same meta, the same jobs with the same keys in
// Slurm's order (their steps too), each value of the same kind, and equal at `same_value`
// (JSON pointers) where the value is the job's and not the cluster's bookkeeping (times,
// priority, association and group numbers, paths, which scheduler loop started it).
void compare_json(const std::string& name, const std::string& ours_text, const std::string& slurm_text,
                  const std::string& our_dir, const std::string& slurm_dir,
                  const std::vector<std::string>& same_value, const std::string& dir_key,
                  const std::string& list_key = "jobs", const std::string& id_key = "job_id") {
  const auto split = [](const std::string& t) {
    const std::size_t exit_at = t.rfind("exit ");
    return std::pair{t.substr(0, exit_at), t.substr(exit_at)};
  };
  const auto [ours_json, ours_exit] = split(ours_text);
  const auto [slurm_json, slurm_exit] = split(slurm_text);
  EXPECT_EQ(ours_exit, slurm_exit) << name;
  const auto ours = nlohmann::ordered_json::parse(ours_json, nullptr, false);
  const auto slurm = nlohmann::ordered_json::parse(slurm_json, nullptr, false);
  ASSERT_FALSE(ours.is_discarded()) << name << ": not JSON:\n" << ours_json;
  ASSERT_FALSE(slurm.is_discarded()) << name;
  EXPECT_EQ(ours["meta"], slurm["meta"]) << name;
  EXPECT_EQ(ours["errors"], slurm["errors"]) << name;
  ASSERT_EQ(ours[list_key].size(), slurm[list_key].size()) << name << ":\n" << ours_json;
  for (const auto& want : slurm[list_key]) {
    const auto got = std::find_if(ours[list_key].begin(), ours[list_key].end(),
                                  [&](const auto& j) { return j[id_key] == want[id_key]; });
    ASSERT_NE(got, ours[list_key].end()) << name << ": job " << want[id_key];
    EXPECT_EQ(keys_of(*got), keys_of(want)) << name << ": job " << want[id_key];
    if (want.contains("steps") && got->contains("steps")) {
      ASSERT_EQ((*got)["steps"].size(), want["steps"].size()) << name << ": job " << want[id_key];
      for (std::size_t s = 0; s < want["steps"].size(); ++s) {
        EXPECT_EQ(keys_of((*got)["steps"][s]), keys_of(want["steps"][s])) << name << ": job " << want[id_key];
      }
    }
    for (const auto& [k, v] : want.items()) {
      if (!got->contains(k)) continue;
      EXPECT_EQ(kind((*got)[k]), kind(v)) << name << ": job " << want[id_key] << " key " << k;
    }
    for (const std::string& k : same_value) {
      const nlohmann::ordered_json::json_pointer at(k);
      EXPECT_EQ(got->contains(at) ? (*got)[at] : nullptr, want.contains(at) ? want[at] : nullptr)
          << name << ": job " << want[id_key] << " at " << k;
    }
    if (dir_key.empty()) continue;
    const auto dir = [&](const auto& j, const std::string& d) {
      std::string s = j[dir_key].template get<std::string>();
      return s == d ? std::string("{dir}") : s;
    };
    EXPECT_EQ(dir(*got, our_dir), dir(want, slurm_dir)) << name;
  }
}

// scontrol show node: the same lines with the same keys in the same order, and the same
// values but for the node's hardware, OS, load and times, which are each cluster's own.
// scontrol show partition: the same, but for the memory in its TRES (Slurm's node has
// 62.50G, Fairway's declares none), its default time (Slurm's NONE, Fairway's default of
// one hour) and its priorities (each scheduler's scale: Slurm's default 1, Fairway's 0).
void compare_node_layout(const std::string& name, const std::string& ours, const std::string& slurm) {
  static const std::set<std::string> kOwn = {"Arch",
                                             "CoresPerSocket",
                                             "CPULoad",
                                             "Gres",
                                             "NodeAddr",
                                             "NodeHostName",
                                             "OS",
                                             "RealMemory",
                                             "AllocMem",
                                             "FreeMem",
                                             "Sockets",
                                             "ThreadsPerCore",
                                             "BootTime",
                                             "SlurmdStartTime",
                                             "LastBusyTime",
                                             "CfgTRES",
                                             "TRES",
                                             "DefaultTime",
                                             "PriorityJobFactor",
                                             "PriorityTier"};
  std::istringstream a(ours), b(slurm);
  std::string la, lb;
  int line = 0;
  while (std::getline(b, lb)) {
    ++line;
    ASSERT_TRUE(std::getline(a, la)) << name << ": Fairway's ends before Slurm's line " << line << ": " << lb;
    if (lb.starts_with("   Reason=")) {  // free text, then [user@time]
      EXPECT_EQ(normalize(la, ""), normalize(lb, "")) << name;
      continue;
    }
    std::istringstream wa(la), wb(lb);
    std::vector<std::string> ka, kb;
    std::string w;
    while (wb >> w) {
      if (w.find('=') == std::string::npos) continue;  // the rest of a value with blanks (OS=Linux 6.1 ...)
      kb.push_back(kOwn.contains(w.substr(0, w.find('='))) ? w.substr(0, w.find('=') + 1) : w);
    }
    while (wa >> w) {
      if (w.find('=') == std::string::npos) continue;
      ka.push_back(kOwn.contains(w.substr(0, w.find('='))) ? w.substr(0, w.find('=') + 1) : w);
    }
    EXPECT_EQ(ka, kb) << name << " line " << line << ":\n  Fairway: " << la << "\n  Slurm:   " << lb;
  }
  EXPECT_FALSE(std::getline(a, la)) << name << ": Fairway's has more lines: " << la;
}

// sprio and sshare: the same lines with the same columns, each word where Slurm's is (a
// number ending where Slurm's ends, as the columns are right-justified; any other word
// the same and starting where Slurm's starts). The numbers are each scheduler's own: job
// ids, priorities on each one's scale, shares of each one's tree (Slurm's holds root's
// own association beside science).
void compare_columns(const std::string& name, const std::string& ours, const std::string& slurm) {
  static const std::regex kWord(R"(\S+)");
  static const std::regex kNumber(R"(-?[0-9][0-9.]*)");
  std::istringstream a(ours), b(slurm);
  std::string la, lb;
  int line = 0;
  while (std::getline(b, lb)) {
    ++line;
    ASSERT_TRUE(std::getline(a, la)) << name << ": Fairway's ends before line " << line << ": " << lb;
    std::vector<std::pair<std::size_t, std::string>> wa, wb;
    for (auto it = std::sregex_iterator(la.begin(), la.end(), kWord); it != std::sregex_iterator(); ++it) {
      wa.emplace_back(static_cast<std::size_t>(it->position()), it->str());
    }
    for (auto it = std::sregex_iterator(lb.begin(), lb.end(), kWord); it != std::sregex_iterator(); ++it) {
      wb.emplace_back(static_cast<std::size_t>(it->position()), it->str());
    }
    const std::string where =
        name + " line " + std::to_string(line) + ":\n  Fairway: " + la + "\n  Slurm:   " + lb;
    EXPECT_EQ(la.size(), lb.size()) << where;
    ASSERT_EQ(wa.size(), wb.size()) << where;
    for (std::size_t i = 0; i < wa.size(); ++i) {
      const bool number = std::regex_match(wb[i].second, kNumber);
      if (number) {
        EXPECT_TRUE(std::regex_match(wa[i].second, kNumber)) << where;
        EXPECT_EQ(wa[i].first + wa[i].second.size(), wb[i].first + wb[i].second.size()) << where;
      } else {
        EXPECT_EQ(wa[i], wb[i]) << where;
      }
    }
  }
  EXPECT_FALSE(std::getline(a, la)) << name << ": Fairway's has more lines: " << la;
}

class SlurmGolden : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "runs Slurm's commands as nobody, which needs root";
    const std::string ids = read_file(kGolden + "/expected/ids");
    ASSERT_TRUE(ids.starts_with("run ")) << ids;
    // Slurm's ids where it was captured: ours are the same, so ids are compared as text.
    coordinator_extra_ = "first_job_id = " + ids.substr(4, ids.find('\n') - 4) + "\n";
    // The anchor's accounting cluster: one 16-CPU node c2 in partition main (no time
    // limit), the submitting user in account science.
    // The weights the capture gave Slurm's multifactor priority for sprio (its age is
    // normalized over a week; Fairway's counts minutes).
    write_config(
        "[[partitions]]\nname = \"main\"\ndefault = true\n"
        "[[accounts]]\nname = \"science\"\nusers = [\"nobody\"]\n"
        "[priority]\nage_per_minute = 1.0\nfairshare = 10000\nsize = 100\npartition = 1000\nqos = 0\n");
    start_coordinator();
    start_agent("c2", std::string(FAIRWAY_SOURCE_DIR) + "/tests/fixtures/topologies/h100-vm-opencl.xml");
    ASSERT_TRUE(wait_nodes_up(1));
  }
};

TEST_F(SlurmGolden, EveryCaptureMatchesWhatSlurmPrinted) {
  const std::string work = dir_ + "/work";
  std::filesystem::create_directories(work);
  std::filesystem::permissions(work, std::filesystem::perms::all);
  std::string printed;
  const int rc = run_as({"nobody",
                         "/bin/bash",
                         {"bash", kGolden + "/scenario.sh", work + "/out"},
                         {"FAIRWAY_COORDINATOR=" + clients_ep_,
                          "PATH=" + std::string(FAIRWAY_SLURM_BIN_DIR) + ":/usr/bin:/bin"},
                         true,
                         work},
                        printed);
  ASSERT_EQ(rc, 0) << printed;
  // Then the admin's commands about the node, as root (its captures go with the others).
  const int admin_rc = run_as({"root",
                               "/bin/bash",
                               {"bash", kGolden + "/admin-scenario.sh", work + "/out"},
                               {"FAIRWAY_COORDINATOR=" + clients_ep_,
                                "PATH=" + std::string(FAIRWAY_SLURM_BIN_DIR) + ":/usr/bin:/bin"},
                               true,
                               work},
                              printed);
  ASSERT_EQ(admin_rc, 0) << printed;
  // Then sprio and sshare on a full node, as nobody again.
  const int priority_rc = run_as({"nobody",
                                  "/bin/bash",
                                  {"bash", kGolden + "/priority-scenario.sh", work + "/out"},
                                  {"FAIRWAY_COORDINATOR=" + clients_ep_,
                                   "PATH=" + std::string(FAIRWAY_SLURM_BIN_DIR) + ":/usr/bin:/bin"},
                                  true,
                                  work},
                                 printed);
  ASSERT_EQ(priority_rc, 0) << printed;
  EXPECT_EQ(read_file(work + "/out/ids"), read_file(kGolden + "/expected/ids"));
  const std::string slurm_dir = trim_line(read_file(kGolden + "/expected/workdir"));
  int compared = 0;
  for (const auto& e : std::filesystem::directory_iterator(kGolden + "/expected")) {
    if (e.path().extension() != ".txt") continue;
    const std::string name = e.path().filename().string();
    const std::string ours = work + "/out/" + name;
    ASSERT_TRUE(std::filesystem::exists(ours)) << name << " was not captured";
    if (name == "scontrol-show-config.txt") {
      // Each cluster's own settings: Fairway prints the keys whose meaning it shares, each
      // spelled and padded as one of Slurm's lines; the values are each cluster's.
      const std::string slurm = read_file(e.path().string());
      std::istringstream lines(read_file(ours));
      std::string line;
      int keys = 0;
      while (std::getline(lines, line)) {
        if (line.starts_with("Configuration data as of ") || line == "exit 0") continue;
        const std::string prefix = line.substr(0, line.find(" = ") + 3);
        // The capture's cluster ran priority/basic; Fairway says priority/multifactor, with
        // whose keys Slurm also prints these (as on ../shared/slurm-anchor/twonode.sh).
        const bool multifactor =
            prefix.starts_with("Priority") || prefix.starts_with("FairShareDampeningFactor");
        EXPECT_TRUE(multifactor || slurm.find("\n" + prefix) != std::string::npos)
            << "\"" << prefix << "\" is not one of Slurm's lines";
        ++keys;
      }
      // Every key Slurm printed is printed (tools read MinJobAge, SchedulerTimeSlice, ...).
      std::istringstream theirs(slurm);
      while (std::getline(theirs, line)) {
        if (line.find(" = ") == std::string::npos && !line.ends_with(" =")) continue;
        const std::string key = line.substr(0, line.find(' '));
        if (key == "MULTIPLE_SLURMD") continue;  // a build option of Debian's Slurm
        EXPECT_NE(read_file(ours).find("\n" + key + " "), std::string::npos) << key << " is not printed";
      }
      EXPECT_GE(keys, 190) << read_file(ours);
      EXPECT_TRUE(slurm.starts_with("Configuration data as of "));
      ++compared;
      continue;
    }
    if (name == "squeue-json.txt") {
      compare_json(name, read_file(ours), read_file(e.path().string()), work, slurm_dir,
                   {"/account",        "/array_job_id",   "/array_task_id", "/batch_flag",
                    "/batch_host",     "/cpus",           "/cpus_per_task", "/exit_code",
                    "/flags",          "/job_id",         "/job_state",     "/name",
                    "/node_count",     "/nodes",          "/partition",     "/qos",
                    "/state_reason",   "/tasks",          "/time_limit",    "/user_name",
                    "/memory_per_cpu", "/memory_per_node"},
                   "current_working_directory");
      ++compared;
      continue;
    }
    if (name == "scontrol-show-node.txt" || name == "scontrol-show-drained-node.txt" ||
        name == "scontrol-show-partition.txt") {
      compare_node_layout(name, read_file(ours), read_file(e.path().string()));
      ++compared;
      continue;
    }
    if (name == "sinfo-json.txt" || name == "sinfo-drained-json.txt") {
      // The node's hardware as each cluster describes it (Slurm's c2 is 16 one-core
      // sockets and no GPU, Fairway's its hwloc topology with one) and its OS are each
      // cluster's own.
      compare_json(
          name, read_file(ours), read_file(e.path().string()), work, slurm_dir,
          {"/name", "/cpus", "/partitions", "/state", "/state_flags", "/reason", "/reason_set_by_user",
           "/alloc_cpus", "/idle_cpus", "/features", "/weight", "/slurmd_version"},
          "", "nodes", "name");
      ++compared;
      continue;
    }
    if (name == "sacct-json.txt") {
      // Not the exit codes: Slurm 22.05 writes SUCCESS 0 for a job and a script that
      // exited 3 (a bug of its dbv0.0.38 parser); Fairway writes FAILED 3. Not the ended
      // jobs' reasons: Slurm keeps a held job's JobHeldUser after its cancel, Fairway's
      // ended jobs have none ("None").
      compare_json(name, read_file(ours), read_file(e.path().string()), work, slurm_dir,
                   {"/account",
                    "/allocation_nodes",
                    "/array/job_id",
                    "/array/task_id",
                    "/association/account",
                    "/association/user",
                    "/job_id",
                    "/name",
                    "/nodes",
                    "/partition",
                    "/qos",
                    "/required/CPUs",
                    "/kill_request_user",
                    "/state/current",
                    "/time/limit",
                    "/user",
                    "/steps/0/step/id",
                    "/steps/0/state",
                    "/steps/0/nodes/list",
                    "/steps/0/tasks/count"},
                   "working_directory");
      ++compared;
      continue;
    }
    if (name.starts_with("sprio") || name == "sshare.txt" || name == "sshare-account.txt") {
      compare_columns(name, read_file(ours), read_file(e.path().string()));
      ++compared;
      continue;
    }
    if (name == "sdiag.txt") {
      // The counts are each scheduler's own, and Slurm prints some lines only after its
      // first backfill cycle or its first minute: every line Slurm printed up to the
      // latency line, numbers and dates as one, must come in Fairway's in the same order.
      const auto shape = [](const std::string& line) {
        static const std::regex kCtime(R"([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})");
        static const std::regex kDigits("[0-9]+");
        return std::regex_replace(std::regex_replace(line, kCtime, "DATE"), kDigits, "9");
      };
      std::vector<std::string> theirs, mine;
      std::istringstream slurm_text(read_file(e.path().string())), our_text(read_file(ours));
      for (std::string l; std::getline(slurm_text, l);) {
        // Printed once the controller has run a minute: the test's coordinator has not.
        if (l.starts_with("\tCycles per minute:")) continue;
        theirs.push_back(shape(l));
        if (l.starts_with("Latency for 1000 calls")) break;
      }
      for (std::string l; std::getline(our_text, l);) mine.push_back(shape(l));
      std::size_t at = 0;
      for (const std::string& l : theirs) {
        while (at < mine.size() && mine[at] != l) ++at;
        EXPECT_LT(at, mine.size()) << name << ": Slurm's line '" << l << "' is not in Fairway's, in order:\n"
                                   << read_file(ours);
        if (at == mine.size()) break;
        ++at;
      }
      ++compared;
      continue;
    }
    if (name == "sacct-usage.txt") {
      // What was used is each machine's own: each number's digits as one, and TotalCPU's
      // two shapes (MM:SS.mmm, or HH:MM:SS when under a millisecond) as one. Which lines
      // have a MaxRSS and a Timelimit is Slurm's; MaxRSS's unit follows its value (a larger
      // one only while it divides evenly: a cgroup's peak here is often whole megabytes),
      // so K, M and G are one too (the rule has its own test).
      const auto shape = [](const std::string& t) {
        static const std::regex kDigits("[0-9]+");
        static const std::regex kCpu(R"(9:9\.9)");
        static const std::regex kUnit("9[KMG]");
        return std::regex_replace(std::regex_replace(std::regex_replace(t, kDigits, "9"), kCpu, "9:9:9"),
                                  kUnit, "9U");
      };
      EXPECT_EQ(shape(read_file(ours)), shape(read_file(e.path().string()))) << name;
      ++compared;
      continue;
    }
    if (name == "sshare-parsable.txt") {
      // Each number's digits as one: usage and shares are each scheduler's own (Slurm's
      // counted nothing before its multifactor plugin was on).
      const auto digits = [](const std::string& t) {
        static const std::regex kDigits("[0-9]+");
        return std::regex_replace(t, kDigits, "9");
      };
      EXPECT_EQ(digits(read_file(ours)), digits(read_file(e.path().string()))) << name;
      ++compared;
      continue;
    }
    if (name == "sacct-job-steps-json.txt") {
      // A batch job's steps (srun inside it): each one's number, command, tasks, layout and
      // state; the killed one's signal. Not the failed step's exit code: Slurm 22.05 writes
      // SUCCESS 0 for it (the same bug as above).
      compare_json(name, read_file(ours), read_file(e.path().string()), work, slurm_dir,
                   {"/job_id",
                    "/name",
                    "/state/current",
                    "/steps/0/step/id",
                    "/steps/0/state",
                    "/steps/1/step/id",
                    "/steps/1/step/name",
                    "/steps/1/state",
                    "/steps/1/tasks/count",
                    "/steps/1/task/distribution",
                    "/steps/1/nodes/list",
                    "/steps/2/step/id",
                    "/steps/2/step/name",
                    "/steps/2/state",
                    "/steps/2/tasks/count",
                    "/steps/2/task/distribution",
                    "/steps/3/step/id",
                    "/steps/3/step/name",
                    "/steps/3/state",
                    "/steps/3/exit_code",
                    "/steps/3/tasks/count"},
                   "working_directory");
      ++compared;
      continue;
    }
    EXPECT_EQ(normalize(read_file(ours), work), normalize(read_file(e.path().string()), slurm_dir))
        << name << ": Fairway's (left) differs from Slurm 22.05's (right)";
    ++compared;
  }
  EXPECT_GE(compared, 20);
}

}  // namespace
}  // namespace fairway::integration
