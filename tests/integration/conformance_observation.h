// What one row of tests/conformance/rows.tsv showed its job, as key -> value with what may
// differ between two runs of any scheduler normalized away: ids, paths, hosts, times.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fairway::integration::conformance {

struct Row {
  std::string name, args, env, head, tail;
};

inline std::vector<Row> read_rows(const std::string& path) {
  std::vector<Row> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, '\t')) f.push_back(cell);
    f.resize(5, "-");
    rows.push_back(Row{f[0], f[1], f[2], f[3], f[4]});
  }
  return rows;
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string l;
  while (std::getline(ss, l)) out.push_back(l);
  return out;
}

inline void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// "0-3,8" -> 5: how many CPUs a Cpus_allowed_list names.
inline std::string cpu_count(const std::string& list) {
  int n = 0;
  std::stringstream ss(list);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (part.empty()) continue;
    const auto dash = part.find('-');
    n += dash == std::string::npos ? 1
                                   : std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
  }
  return std::to_string(n);
}

// How many entries a GPU list has ("0,1" -> "2 gpus"): which GPU a job got is placement.
inline std::string gpu_count(const std::string& list) {
  if (list.empty()) return "0 gpus";
  return std::to_string(std::count(list.begin(), list.end(), ',') + 1) + " gpus";
}

// The row asks for particular nodes: node names stay; otherwise where a job ran is the
// scheduler's choice and a lone node name reads {node}.
inline bool pins_nodes(const Row& r) {
  const std::string all = r.args + " " + r.env + " " + r.head;
  // -N2 with one task runs on one node (sbatch's "setting nnodes to 1"): the choice is free.
  if (all.find("-N2 -n1") != std::string::npos || all.find("-N2 --ntasks=1") != std::string::npos)
    return false;
  for (const char* w : {"-w ", "--nodelist", "-x ", "--exclude", "-C ", "--constraint", "CONSTRAINT", "-N2",
                        "-N 2", "--nodes=2", "-n30", "-n56", "-n 30", "-n57"}) {
    if (all.find(w) != std::string::npos) return true;
  }
  return false;
}

class Observation {
 public:
  // `cap`: the row's capture directory; `workdir`: the directory the rows ran in.
  Observation(const Row& row, const std::filesystem::path& cap, const std::string& workdir)
      : row_(row), cap_(cap), workdir_(workdir) {
    collect_ids();
    read_submit();
    std::vector<std::string> tasks;  // "" for a plain job, "N/" for array task N
    if (std::filesystem::exists(cap_ / "env.txt")) tasks.push_back(std::string(""));
    if (std::filesystem::exists(cap_)) {
      std::vector<std::string> subs;
      for (const auto& e : std::filesystem::directory_iterator(cap_)) {
        if (e.is_directory()) subs.push_back(e.path().filename().string());
      }
      std::sort(subs.begin(), subs.end());
      for (auto& s : subs) tasks.push_back(s + "/");
    }
    if (!tasks.empty()) keys_["tasks"] = std::to_string(tasks.size());
    for (const auto& t : tasks) read_job(t);
    read_final();
  }
  const std::map<std::string, std::string>& keys() const { return keys_; }

 private:
  void collect_ids() {
    job_ = lines_of(slurp(cap_ / "id.txt")).empty() ? "" : lines_of(slurp(cap_ / "id.txt"))[0];
    if (!std::filesystem::exists(cap_)) return;
    for (const auto& e : std::filesystem::recursive_directory_iterator(cap_)) {
      if (e.path().filename() != "env.txt") continue;
      const std::string task =
          e.path().parent_path() == cap_ ? "" : e.path().parent_path().filename().string();
      for (const auto& l : lines_of(slurp(e.path()))) {
        if (l.starts_with("SLURM_JOB_ID=") && !task.empty()) task_ids_[l.substr(13)] = "{task" + task + "}";
        // sbatch -Q printed no id (and -v's came after its report): the job's own says it.
        if (l.starts_with("SLURM_JOB_ID=") && task.empty() && job_.empty()) job_ = l.substr(13);
      }
    }
  }

  // Paths and node names; with `ids`, job ids too (only in keys that hold one: a small id
  // would read as any count elsewhere).
  std::string norm(std::string v, bool ids = false) const {
    replace_all(v, workdir_ + "/" + row_.name, "{dir}");
    replace_all(v, workdir_, "{work}");
    if (!ids) {
      if (!pins_nodes(row_)) v = std::regex_replace(v, std::regex("^vm1?$|\\bvm1?(?=[ /,)]|$)"), "{node}");
      return v;
    }
    // The array's (or job's) own id first: on Slurm one task of an array runs under it.
    const auto id_re = [](const std::string& id) { return std::regex("(^|[^0-9])" + id + "(?=[^0-9]|$)"); };
    if (!job_.empty()) v = std::regex_replace(v, id_re(job_), "$1{job}");
    for (const auto& [id, name] : task_ids_) v = std::regex_replace(v, id_re(id), "$1" + name);
    if (!pins_nodes(row_)) v = std::regex_replace(v, std::regex("^vm1?$|\\bvm1?(?=[ /,)]|$)"), "{node}");
    return v;
  }

  void read_submit() {
    const auto l = lines_of(slurp(cap_ / "submit.txt"));
    const std::string exit = l.empty() ? "missing" : l.back();
    keys_["submit.exit"] = exit == "exit 0" ? "0" : "error";
    if (exit != "exit 0") {
      // The first words of the complaint, without the command's name.
      std::string said = l.size() > 1 ? l.front() : "";
      keys_["submit.error"] = said.empty() ? "(nothing)" : "(said)";
    }
  }

  void read_env(const std::string& t, const std::string& file, const std::string& prefix) {
    static const std::set<std::string> kIgnored = {"PWD",    "SHLVL",      "_",
                                                   "OLDPWD", "SLURM_CONF", "FAIRWAY_COORDINATOR"};
    for (const auto& l : lines_of(slurp(cap_ / (t + file)))) {
      const auto eq = l.find('=');
      if (eq == std::string::npos) continue;
      const std::string k = l.substr(0, eq);
      if (kIgnored.contains(k) || k.starts_with("FAIRWAY_")) continue;
      std::string v = l.substr(eq + 1);
      if (k == "SLURM_TASK_PID" || k == "SLURM_SRUN_COMM_PORT" || k == "SLURM_STEP_LAUNCHER_PORT")
        v = "{pid}";
      if (k == "SLURM_SUBMIT_HOST" || k == "HOSTNAME") v = "{host}";
      if (k == "PATH")
        v = std::regex_replace(v, std::regex("^[^:]*/slurm/bin:"), "");  // Fairway's links first
      // An array task's own id: which task runs under the array's id is Slurm's choice.
      if ((k == "SLURM_JOB_ID" || k == "SLURM_JOBID") && !t.empty()) v = "{task}";
      if (k == "CUDA_VISIBLE_DEVICES" || k == "GPU_DEVICE_ORDINAL" || k == "ROCR_VISIBLE_DEVICES" ||
          k == "ZE_AFFINITY_MASK" || k == "SLURM_JOB_GPUS" || k == "SLURM_STEP_GPUS") {
        v = gpu_count(v);
      }
      keys_[t + prefix + k] = norm(v, k == "SLURM_JOB_ID" || k == "SLURM_JOBID" || k == "SLURM_ARRAY_JOB_ID");
    }
  }

  void read_job(const std::string& t) {
    read_env(t, "env.txt", "env.");
    // aff.txt (the CPU list) is kept in the captures but not compared: the anchor's 28 cores
    // a node are fake on a 2-CPU host, where Slurm's binding lands on whatever CPU exists.
    read_scontrol(t + "scontrol.", slurp(cap_ / (t + "scontrol.txt")));
    const auto sq = lines_of(slurp(cap_ / (t + "squeue.txt")));
    static const char* kSqueue[] = {"%j", "%P", "%l", "%D", "%C", "%b", "%m",
                                    "%c", "%t", "%y", "%k", "%a", "%q"};
    std::vector<std::string> cells;
    if (sq.size() == 1 && sq[0].find('|') != std::string::npos) {  // all fields on one line
      std::stringstream ss(sq[0]);
      std::string c;
      while (std::getline(ss, c, '|')) cells.push_back(c);
    } else {
      cells = sq;  // one line per field
    }
    cells.resize(std::size(kSqueue));
    for (std::size_t i = 0; i < std::size(kSqueue); ++i) {
      std::string v = cells[i] == "365-00:00:00" ? "UNLIMITED" : cells[i];
      keys_[t + "squeue." + kSqueue[i]] = norm(v);
    }
    // srun inside the job: its exit, then per task "procid localid nodeid node" and its GPU
    // count.
    std::vector<std::string> tasks, gpus;
    std::string exit = "missing";
    for (const auto& l : lines_of(slurp(cap_ / (t + "srun.txt")))) {
      if (l.starts_with("exit ")) {
        exit = l.substr(5);
        continue;
      }
      std::stringstream ss(l);
      std::string p, lid, nid, node, cpus, cvd;
      // CUDA_VISIBLE_DEVICES set but empty leaves the last field out.
      if (!(ss >> p >> lid >> nid >> node >> cpus) || !std::all_of(p.begin(), p.end(), ::isdigit)) {
        tasks.push_back("(" + norm(l) + ")");
        continue;
      }
      tasks.push_back(p + " " + lid + " " + nid + " " + norm(node));
      ss >> cvd;
      gpus.push_back(p + ":" + (cvd == "unset" ? cvd : gpu_count(cvd)));
    }
    std::sort(tasks.begin(), tasks.end());
    std::sort(gpus.begin(), gpus.end());
    const auto join = [](const std::vector<std::string>& v) {
      std::string out;
      for (const auto& s : v) out += (out.empty() ? "" : "; ") + s;
      return out;
    };
    keys_[t + "srun.exit"] = exit;
    keys_[t + "srun.tasks"] = join(tasks);
    keys_[t + "srun.gpus"] = join(gpus);
    read_env(t, "srunenv.txt", "srunenv.");
    if (row_.name.starts_with("begin")) {
      const auto b = lines_of(slurp(cap_ / (t + "begin.txt")));
      const auto n = row_.args.find("now+");
      const int asked = n == std::string::npos ? 0 : std::stoi(row_.args.substr(n + 4));
      keys_[t + "begin"] = b.empty() ? "missing" : std::stoi(b[0]) >= asked ? "not early" : "early";
    }
  }

  void read_scontrol(const std::string& prefix, const std::string& text) {
    static const std::set<std::string> kTimes = {
        "SubmitTime",    "EligibleTime",        "AccrueTime",  "StartTime",   "EndTime",
        "Deadline",      "PreemptEligibleTime", "PreemptTime", "SuspendTime", "SecsPreSuspend",
        "LastSchedEval", "Scheduler",           "RunTime",     "Priority",    "AllocNode:Sid",
        "JobId",         "ArrayJobId",          "Reason",      "ArrayTaskId", "Power"};
    std::stringstream ss(text);
    std::string w, key;
    while (ss >> w) {
      const auto eq = w.find('=');
      if (eq == std::string::npos || eq == 0) {
        if (!key.empty()) keys_[prefix + key] += " " + norm(w);  // a value with blanks
        continue;
      }
      key = w.substr(0, eq);
      if (kTimes.contains(key)) {
        key.clear();
        continue;
      }
      std::string v = w.substr(eq + 1);
      if (v == "365-00:00:00") v = "UNLIMITED";  // Slurm's backfill writes a year for "no limit"
      keys_[prefix + key] = norm(v, key == "StdOut" || key == "StdErr" || key == "Dependency");
    }
  }

  void read_final() {
    const std::string text = slurp(cap_ / "final.txt");
    if (text.empty()) return;
    std::smatch m;
    if (std::regex_search(text, m, std::regex("JobState=(\\S+)"))) keys_["final.JobState"] = m[1];
    if (std::regex_search(text, m, std::regex("ExitCode=(\\S+)"))) keys_["final.ExitCode"] = m[1];
    const std::string files = slurp(cap_ / "files.txt");
    std::vector<std::string> names;
    for (const auto& l : lines_of(files)) names.push_back(norm(l, true));
    std::sort(names.begin(), names.end());
    std::string joined;
    for (const auto& n : names) joined += (joined.empty() ? "" : " ") + n;
    keys_["files"] = joined;
  }

  Row row_;
  std::filesystem::path cap_;
  std::string workdir_;
  std::string job_;
  std::map<std::string, std::string> task_ids_;  // an array task's own job id -> {taskN}
  std::map<std::string, std::string> keys_;
};

}  // namespace fairway::integration::conformance
