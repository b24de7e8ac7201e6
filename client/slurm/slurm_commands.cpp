#include "client/slurm/slurm_commands.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <span>

#include "client/slurm/slurm_admin_commands.h"
#include "client/slurm/slurm_option_scan.h"
#include "client/views/slurm/sinfo_view.h"
#include "client/views/text_format.h"
#include "shared/base/try.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

// squeue's own default layout (Slurm 22.05), which tools parse.
constexpr const char* kSqueueDefaultFormat = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R";

// squeue -O / sinfo -O "JobID:8,Name:.10,State,Partition:|": each name's %-letter, its
// width (20 by default; '.' right-justifies) and a suffix written after it; with a suffix
// and no width, the value alone. Unknown names are refused as the command words it
// ("Invalid job format specification: X", sinfo's words too).
Result<std::string> named_format(const std::string& spec,
                                 std::span<const std::pair<std::string_view, char>> fields,
                                 const std::string& refusal) {
  std::string out;
  for (const std::string& item : comma_words(spec)) {
    const std::size_t colon = item.find(':');
    const std::string name = to_lower(item.substr(0, colon));
    char letter = 0;
    for (const auto& [n, l] : fields) {
      if (n == name) letter = l;
    }
    if (letter == 0) return invalid_argument(refusal + item.substr(0, colon));
    std::string width = "20", suffix;
    bool right = false;
    if (colon != std::string::npos) {
      std::string rest = item.substr(colon + 1);
      if (!rest.empty() && rest[0] == '.') {
        right = true;
        rest.erase(0, 1);
      }
      const std::size_t digits = rest.find_first_not_of("0123456789");
      width = rest.substr(0, digits);
      suffix = digits == std::string::npos ? std::string() : rest.substr(digits);
      if (width.empty() && suffix.empty()) width = "20";
    }
    out += "%" + std::string(right ? "." : "") + width + letter + suffix;
  }
  if (out.empty()) return invalid_argument(refusal + spec);
  return out;
}

Result<std::string> squeue_named_format(const std::string& spec) {
  static const std::pair<std::string_view, char> fields[] = {
      {"jobid", 'i'},        {"jobarrayid", 'i'},    {"name", 'j'},       {"state", 'T'},
      {"statecompact", 't'}, {"username", 'u'},      {"partition", 'P'},  {"reason", 'r'},
      {"numcpus", 'C'},      {"timelimit", 'l'},     {"numnodes", 'D'},   {"timeused", 'M'},
      {"reasonlist", 'R'},   {"nodelist", 'N'},      {"account", 'a'},    {"qos", 'q'},
      {"priority", 'p'},     {"starttime", 'S'},     {"submittime", 'V'}, {"endtime", 'e'},
      {"timeleft", 'L'},     {"workdir", 'Z'},       {"arrayjobid", 'F'}, {"arraytaskid", 'K'},
      {"minmemory", 'm'},    {"tres-per-node", 'b'}, {"comment", 'k'},    {"nice", 'y'}};
  return named_format(spec, fields, "Invalid job format specification: ");
}

// sinfo -O's names for sinfo's %-letters.
Result<std::string> sinfo_named_format(const std::string& spec) {
  static const std::pair<std::string_view, char> fields[] = {
      {"partition", 'P'},     {"partitionname", 'R'}, {"available", 'a'},
      {"time", 'l'},          {"nodes", 'D'},         {"statecompact", 't'},
      {"statelong", 'T'},     {"nodelist", 'N'},      {"cpus", 'c'},
      {"memory", 'm'},        {"gres", 'G'},          {"cpusstate", 'C'},
      {"reason", 'E'},        {"size", 's'},          {"root", 'r'},
      {"oversubscribe", 'h'}, {"groups", 'g'},        {"user", 'u'},
      {"userlong", 'U'},      {"timestamp", 'H'},     {"socketcorethread", 'z'},
      {"disk", 'd'},          {"weight", 'w'},        {"features", 'f'}};
  // Slurm's sinfo says "job" here too.
  return named_format(spec, fields, "Invalid job format specification: ");
}

Result<SlurmTranslation> squeue(const std::vector<std::string>& args, const SlurmInvocation& inv) {
  static const std::vector<SlurmOption> table = {
      {'u', "user", true, Action::kPass},
      {'p', "partition", true, Action::kPass},
      {'t', "states", true, Action::kPass},
      {'j', "jobs", true, Action::kPass},
      {'o', "format", true, Action::kPass},
      {'S', "sort", true, Action::kPass},
      {'l', "long", false, Action::kPass},
      {'r', "array", false, Action::kPass},
      {'h', "noheader", false, Action::kPass},
      {'\0', "start", false, Action::kPass},
      {'\0', "json", false, Action::kPass},
      {'a', "all", false, Action::kDrop},  // every partition: the default here
      {'v', "verbose", false, Action::kDrop},
      {'\0', "me", false, Action::kDrop},
      {'M', "clusters", true, Action::kRefuse, "one cluster only"},
      {'i', "iterate", true, Action::kPass},
      {'O', "Format", true, Action::kPass},  // rewritten below into %-fields
      {'A', "account", true, Action::kPass},
      {'n', "name", true, Action::kPass},
      {'w', "nodelist", true, Action::kPass},
      {'s', "steps", false, Action::kPass},
  };
  FAIRWAY_TRY_ASSIGN(s, scan("squeue", args, table, false));
  if (!s.help.empty()) return SlurmTranslation{{}, s.help};
  // -O's named fields become -o's %-fields.
  const bool named = std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a == "-O" || a.starts_with("-O") || a.starts_with("--Format");
  });
  for (auto& g : s.given) {
    if (named && g.option != nullptr &&
        (g.option->long_name == "format" || g.option->long_name == "Format")) {
      FAIRWAY_TRY_ASSIGN(percent, squeue_named_format(g.value));
      g.value = percent;
    }
  }
  // -i's seconds, as squeue checks them (and says it, a blank line after).
  SlurmQueueCall call;
  for (const auto& g : s.given) {
    if (g.option == nullptr || g.option->long_name != "iterate") continue;
    const std::string& v = g.value;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), call.iterate_s);
    if (ec != std::errc() || end != v.data() + v.size() || call.iterate_s < 1 || call.iterate_s > 86400) {
      return invalid_argument("--iterate=" + v + "\n");
    }
  }
  QueueOptions& o = call.options;
  o.squeue_rules = true;
  int users = 0, formats = 0;
  std::vector<std::string> unexpected;
  if (std::find(args.begin(), args.end(), "--me") != args.end()) o.user = inv.user, ++users;
  for (const auto& [option, value] : s.given) {
    if (option == nullptr) {
      unexpected.push_back(value);
      continue;
    }
    const std::string_view name = option->long_name;
    if (name == "user")
      o.user = value, ++users;
    else if (name == "partition")
      o.partition = value;
    else if (name == "states")
      o.states = value;
    else if (name == "jobs")
      o.jobs = value;
    else if (name == "format" || name == "Format")
      o.format = value, ++formats;
    else if (name == "sort")
      o.sort = value;
    else if (name == "long")
      o.long_format = true;
    else if (name == "array")
      o.expand_arrays = true;
    else if (name == "noheader")
      o.noheader = true;
    else if (name == "start")
      o.start = true;
    else if (name == "json")
      o.json = true;
    else if (name == "account")
      o.accounts = value;
    else if (name == "name")
      o.names = value;
    else if (name == "nodelist")
      o.nodes = value;
    else if (name == "steps")
      o.steps = true;
  }
  if (!s.seen_format && !o.steps) o.format = kSqueueDefaultFormat;
  SlurmTranslation t{{}, std::nullopt, call};
  // What fairway queue's parser refused before squeue read its options itself, in its words.
  if (users > 1)
    t.usage_error = given_twice("user", users);
  else if (formats > 1)
    t.usage_error = given_twice("format", formats);
  else if (!unexpected.empty())
    t.usage_error = unexpected_words(unexpected);
  return t;
}

Result<SlurmTranslation> sdiag(const std::vector<std::string>& args) {
  static const std::vector<SlurmOption> table = {
      {'a', "all", false, Action::kDrop},  // every statistic: what it prints here
      {'r', "reset", false, Action::kRefuse, "the counts run from the coordinator's start"},
      {'M', "cluster", true, Action::kRefuse, "one cluster only"},
      {'t', "sort-by-time", false, Action::kDrop},  // RPCs have no times here
      {'T', "sort-by-time2", false, Action::kDrop},
      {'\0', "json", false, Action::kPass},
  };
  FAIRWAY_TRY_ASSIGN(s, scan("sdiag", args, table, false));
  if (!s.help.empty()) return SlurmTranslation{{}, s.help};
  SlurmDiagCall call;
  for (const auto& g : s.given) {
    if (g.option != nullptr && g.option->long_name == "json") call.json = true;
  }
  SlurmTranslation t{{}, std::nullopt, call};
  // fairway diag read --sdiag after sdiag's words when they had no --json.
  t.usage_error =
      words_not_expected(s, call.json ? std::vector<std::string>{} : std::vector<std::string>{"--sdiag"});
  return t;
}

Result<SlurmTranslation> scancel(const std::vector<std::string>& args, const SlurmInvocation& inv) {
  static const std::vector<SlurmOption> table = {
      {'u', "user", true, Action::kPass},
      {'t', "state", true, Action::kPass},
      {'p', "partition", true, Action::kPass},
      {'n', "name", true, Action::kPass},
      {'\0', "jobname", true, Action::kPass},
      {'A', "account", true, Action::kPass},
      {'s', "signal", true, Action::kPass},
      {'b', "batch", false, Action::kPass},
      {'f', "full", false, Action::kDrop},  // every step and the script: what a signal reaches here
      {'q', "quiet", false, Action::kDrop},
      {'v', "verbose", false, Action::kDrop},
      {'i', "interactive", false, Action::kPass},
      {'M', "clusters", true, Action::kRefuse, "one cluster only"},
      {'w', "nodelist", true, Action::kRefuse, "not yet: filter with -u, -p, -n or -t"},
      {'\0', "me", false, Action::kDrop},  // the caller's jobs: -u below
  };
  FAIRWAY_TRY_ASSIGN(s, scan("scancel", args, table, false));
  if (!s.help.empty()) return SlurmTranslation{{}, s.help};
  SlurmCancelCall call;
  ControlOptions& o = call.options;
  // Slurm's scancel says nothing of a job that does not exist or has ended (unless -v).
  const bool verbose = std::any_of(args.begin(), args.end(),
                                   [](const std::string& a) { return a == "-v" || a == "--verbose"; });
  o.quiet_when_gone = !verbose;
  int users = 0, names = 0;
  for (const auto& [option, value] : s.given) {
    if (option == nullptr) {
      if (value != "--") o.ids.push_back(value);  // "--" ends the options, as fairway's parser read it
      continue;
    }
    const std::string_view name = option->long_name;
    if (name == "user")
      o.filter.user = value, ++users;
    else if (name == "state")
      o.filter.states = value;
    else if (name == "partition")
      o.filter.partition = value;
    else if (name == "name" || name == "jobname")
      o.filter.name = value, ++names;
    else if (name == "account")
      o.filter.account = value;
    else if (name == "signal")
      o.signal = value;
    else if (name == "batch")
      o.batch = true;
    else if (name == "interactive")
      o.confirm = true;
  }
  if (std::find(args.begin(), args.end(), "--me") != args.end()) o.filter.user = inv.user, ++users;
  SlurmTranslation t{{}, std::nullopt, call};
  if (users > 1)
    t.usage_error = given_twice("user", users);
  else if (names > 1)
    t.usage_error = given_twice("name", names);
  return t;
}

// Slurm's input variables that set sbatch, salloc and srun options; the command line wins
// over them (it comes later), and they win over #SBATCH directives, as in Slurm.
std::vector<std::string> options_from_environment(std::string_view prefix, const SlurmInvocation& inv) {
  static const std::pair<std::string_view, std::string_view> names[] = {{"ACCOUNT", "--account"},
                                                                        {"PARTITION", "--partition"},
                                                                        {"QOS", "--qos"},
                                                                        {"TIMELIMIT", "--time"},
                                                                        {"JOB_NAME", "--job-name"},
                                                                        {"EXPORT", "--export"},
                                                                        {"RESERVATION", "--reservation"},
                                                                        {"CONSTRAINT", "--constraint"},
                                                                        {"MEM_PER_NODE", "--mem"},
                                                                        {"MEM_PER_CPU", "--mem-per-cpu"},
                                                                        {"GPUS", "--gpus"},
                                                                        {"ARRAY_INX", "--array"},
                                                                        {"OUTPUT", "--output"},
                                                                        {"ERROR", "--error"},
                                                                        {"GPUS_PER_TASK", "--gpus-per-task"},
                                                                        {"GPUS_PER_NODE", "--gpus-per-node"},
                                                                        {"CPUS_PER_GPU", "--cpus-per-gpu"},
                                                                        {"MEM_PER_GPU", "--mem-per-gpu"},
                                                                        {"OPEN_MODE", "--open-mode"},
                                                                        {"DISTRIBUTION", "--distribution"},
                                                                        {"HINT", "--hint"}};
  std::vector<std::string> out;
  for (const auto& [suffix, option] : names) {
    const std::string name = std::string(prefix) + std::string(suffix);
    for (const auto& [k, v] : inv.env) {
      if (k == name && !v.empty()) out.push_back(std::string(option) + "=" + v);
    }
  }
  for (const auto& [k, v] : inv.env) {
    // Its value is --exclusive's (user, mcs...): a bad one is refused as on the command line.
    if (k == std::string(prefix) + "EXCLUSIVE")
      out.emplace_back(v.empty() ? "--exclusive" : "--exclusive=" + v);
    if (k == std::string(prefix) + "WAIT" && prefix == "SBATCH_") out.emplace_back("--wait");
    if (k == std::string(prefix) + "NO_REQUEUE") out.emplace_back("--no-requeue");
    if (k == std::string(prefix) + "REQUEUE") out.emplace_back("--requeue");
  }
  return out;
}

// srun and salloc: fairway run's and alloc's command line (their COMMAND follows the
// options, which those commands parse), the variables' options before the caller's.
Result<SlurmTranslation> submitting(std::string sub, std::string_view prefix,
                                    const std::vector<std::string>& args, const SlurmInvocation& inv) {
  std::vector<std::string> out = {sub};
  const auto from_env = options_from_environment(prefix, inv);
  out.insert(out.end(), from_env.begin(), from_env.end());
  out.insert(out.end(), args.begin(), args.end());
  return SlurmTranslation{out, std::nullopt};
}

// sbatch: its variables' options, then the caller's (which win), read by fairway submit's
// grammar into its command.
Result<SlurmTranslation> batch(const std::vector<std::string>& args, const SlurmInvocation& inv) {
  std::vector<std::string> words = options_from_environment("SBATCH_", inv);
  words.insert(words.end(), args.begin(), args.end());
  auto command = parse_submit_command_line(words);
  if (!command) return SlurmTranslation{.usage_error = command.error().message};
  if (command->help) return SlurmTranslation{.local_output = submit_usage()};
  if (command->run_only())
    return SlurmTranslation{.usage_error = "--label, --jobid and --pty are options of fairway run"};
  // A batch job's output goes where Slurm's would when nothing names a file.
  command->options.default_output = "slurm-%j.out";
  return SlurmTranslation{.call = SlurmSubmitCall{std::move(*command)}};
}

Result<SlurmTranslation> sacct(const std::vector<std::string>& args) {
  static const std::vector<SlurmOption> table = {
      {'j', "jobs", true, Action::kPass},
      {'u', "user", true, Action::kPass},
      {'\0', "name", true, Action::kPass},
      {'A', "accounts", true, Action::kPass},
      {'r', "partition", true, Action::kPass},
      {'s', "state", true, Action::kPass},
      {'S', "starttime", true, Action::kPass},
      {'E', "endtime", true, Action::kPass},
      {'o', "format", true, Action::kPass},
      {'P', "parsable2", false, Action::kPass},
      {'\0', "json", false, Action::kPass},
      {'X', "allocations", false, Action::kDrop},  // the job lines alone: no --batch-steps below
      {'a', "allusers", false, Action::kDrop},
      {'v', "verbose", false, Action::kDrop},
      // The one cluster there is: sacct -M all (workflow engines pass it) lists its jobs.
      {'M', "clusters", true, Action::kDrop},
      {'n', "noheader", false, Action::kPass},
      {'p', "parsable", false, Action::kPass},
  };
  FAIRWAY_TRY_ASSIGN(s, scan("sacct", args, table, false));
  if (!s.help.empty()) return SlurmTranslation{{}, s.help};
  SlurmHistoryCall call;
  HistoryOptions& o = call.options;
  // Slurm's sacct lists waiting and running jobs with the finished ones: tools poll it.
  o.live = true;
  o.sacct_table = true;
  const bool allocations_only = std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a == "-X" || a == "--allocations" ||
           (a.size() > 2 && a[0] == '-' && a[1] != '-' && a.find('X') != std::string::npos);
  });
  o.batch_steps = !allocations_only;
  std::vector<std::string> unexpected;
  for (const auto& [option, value] : s.given) {
    if (option == nullptr) {
      unexpected.push_back(value);
      continue;
    }
    const std::string_view name = option->long_name;
    if (name == "jobs")
      o.jobs = value;
    else if (name == "user")
      o.user = value;
    else if (name == "name")
      o.names = value;
    else if (name == "accounts")
      o.account = value;
    else if (name == "partition")
      o.partition = value;
    else if (name == "state")
      o.states = value;
    else if (name == "starttime")
      o.start = value;
    else if (name == "endtime")
      o.end = value;
    else if (name == "format")
      o.format = value;
    else if (name == "parsable2")
      o.parsable = true;
    else if (name == "json")
      o.json = true;
    else if (name == "noheader")
      o.noheader = true;
    else if (name == "parsable")
      o.trailing_bar = true;
  }
  SlurmTranslation t{{}, std::nullopt, call};
  if (!unexpected.empty()) t.usage_error = unexpected_words(unexpected);
  return t;
}

Result<SlurmTranslation> sinfo(const std::vector<std::string>& args) {
  static const std::vector<SlurmOption> table = {
      {'s', "summarize", false, Action::kPass},
      {'N', "Node", false, Action::kPass},
      {'o', "format", true, Action::kPass},
      {'p', "partition", true, Action::kPass},
      {'h', "noheader", false, Action::kPass},
      {'\0', "json", false, Action::kPass},
      {'a', "all", false, Action::kDrop},
      {'v', "verbose", false, Action::kDrop},
      {'M', "clusters", true, Action::kRefuse, "one cluster only"},
      {'l', "long", false, Action::kPass},  // and the long layout, below
      {'R', "list-reasons", false, Action::kPass},
      {'O', "Format", true, Action::kPass},  // rewritten below into %-fields
  };
  FAIRWAY_TRY_ASSIGN(s, scan("sinfo", args, table, false));
  if (!s.help.empty()) return SlurmTranslation{{}, s.help};
  // -O's named fields become -o's %-fields (-o's too, when -O is among the options).
  const bool named = std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a.starts_with("-O") || a.starts_with("--Format");
  });
  for (auto& g : s.given) {
    if (named && g.option != nullptr &&
        (g.option->long_name == "format" || g.option->long_name == "Format")) {
      FAIRWAY_TRY_ASSIGN(percent, sinfo_named_format(g.value));
      g.value = percent;
    }
  }
  SlurmNodesCall call;
  NodeLayoutOptions& o = call.layout;
  int formats = 0;
  for (const auto& [option, value] : s.given) {
    if (option == nullptr) {
      call.names.push_back(value);
      continue;
    }
    const std::string_view name = option->long_name;
    if (name == "summarize")
      o.summarize = true;
    else if (name == "Node")
      o.node_oriented = true;
    else if (name == "format" || name == "Format")
      o.format = value, ++formats;
    else if (name == "partition")
      o.partitions = comma_words(value);
    else if (name == "noheader")
      o.noheader = true;
    else if (name == "json")
      call.json = true;
    else if (name == "long")
      o.time_line = true;
    else if (name == "list-reasons")
      o.list_reasons = true;
  }
  // As Slurm's: -N overrides -R (sinfo -N -R is sinfo -N).
  if (o.node_oriented) o.list_reasons = false;
  // --json is sinfo's JSON of the nodes; everything else is a %-field layout, sinfo's
  // default (or -s's, -l's) unless -o gave one.
  if (!call.json && o.format.empty()) {
    o.format = o.summarize && !o.node_oriented  ? kSinfoSummaryFormat
               : o.node_oriented && o.time_line ? kSinfoNodeLongFormat
               : o.node_oriented                ? kSinfoNodeFormat
               : o.list_reasons && o.time_line  ? kSinfoReasonsLongFormat
               : o.list_reasons                 ? kSinfoReasonsFormat
               : o.time_line                    ? kSinfoLongFormat
                                                : kSinfoDefaultFormat;
  }
  SlurmTranslation t{{}, std::nullopt, call};
  if (formats > 1) t.usage_error = given_twice("format", formats);
  return t;
}

// sprio's default and -l tables (slurm_report_views.h).
Result<SlurmTranslation> sprio(const std::vector<std::string>& args) {
  static const std::vector<SlurmOption> table = {
      {'j', "jobs", true, Action::kPass},
      {'u', "user", true, Action::kPass},
      {'p', "partition", true, Action::kPass},
      {'l', "long", false, Action::kPass},
      {'h', "noheader", false, Action::kPass},
      {'v', "verbose", false, Action::kDrop},
      {'n', "norm", false, Action::kRefuse, "fairway priority -n gives each term before its weight"},
      {'w', "weights", false, Action::kRefuse, "fairway show config lists the weights"},
      {'o', "format", true, Action::kRefuse, "the default and -l layouts only"},
      {'S', "sort", true, Action::kRefuse, "highest priority first only"},
      {'M', "clusters", true, Action::kRefuse, "one cluster only"},
  };
  FAIRWAY_TRY_ASSIGN(s, scan("sprio", args, table, false));
  if (!s.help.empty()) return SlurmTranslation{{}, s.help};
  SlurmPriorityCall call;
  PriorityOptions& o = call.options;
  o.sprio = true;
  for (const auto& [option, value] : s.given) {
    if (option == nullptr) continue;
    const std::string_view name = option->long_name;
    if (name == "jobs")
      o.jobs = value;
    else if (name == "user")
      o.user = value;
    else if (name == "partition")
      o.partition = value;
    else if (name == "long")
      o.long_format = true;
    else if (name == "noheader")
      o.noheader = true;
  }
  SlurmTranslation t{{}, std::nullopt, call};
  t.usage_error = words_not_expected(s, {"--sprio"});
  return t;
}

// sshare's table (slurm_report_views.h): the caller's lines unless -a or -u.
Result<SlurmTranslation> sshare(const std::vector<std::string>& args) {
  static const std::vector<SlurmOption> table = {
      {'a', "all", false, Action::kRename, "--all-users"},
      {'A', "accounts", true, Action::kRename, "--account"},
      {'u', "users", true, Action::kRename, "--user"},
      {'P', "parsable2", false, Action::kRename, "--parsable2"},
      {'p', "parsable", false, Action::kRename, "--parsable"},
      {'h', "noheader", false, Action::kRename, "--noheader"},
      {'v', "verbose", false, Action::kDrop},
      {'l', "long", false, Action::kRefuse, "the default layout only (no LevelFS or TRES minutes)"},
      {'o', "format", true, Action::kRefuse, "the default layout only"},
      {'U', "Users", false, Action::kRefuse, "accounts and users together only"},
      {'M', "clusters", true, Action::kRefuse, "one cluster only"},
  };
  FAIRWAY_TRY_ASSIGN(s, scan("sshare", args, table, false));
  if (!s.help.empty()) return SlurmTranslation{{}, s.help};
  SlurmSharesCall call;
  SharesOptions& o = call.options;
  o.sshare = true;
  for (const auto& [option, value] : s.given) {
    if (option == nullptr) continue;
    const std::string_view name = option->long_name;
    if (name == "all")
      o.all_users = true;
    else if (name == "accounts")
      o.account = value;
    else if (name == "users")
      o.user = value;
    else if (name == "parsable2")
      o.parsable = true;
    else if (name == "parsable")
      o.trailing_bar = true;
    else if (name == "noheader")
      o.noheader = true;
  }
  SlurmTranslation t{{}, std::nullopt, call};
  t.usage_error = words_not_expected(s, {"--sshare"});
  return t;
}

}  // namespace

std::optional<SlurmUsageError> slurm_usage_error(std::string_view command, std::string_view message) {
  std::string line;
  if (message.starts_with("unrecognized option '") || message.starts_with("invalid option -- '")) {
    line = std::string(message);
  } else if (constexpr std::string_view kOurs = "unknown option \"";
             message.starts_with(kOurs) && message.ends_with('"')) {
    const std::string_view option = message.substr(kOurs.size(), message.size() - kOurs.size() - 1);
    if (option.size() < 2 || option[0] != '-') return std::nullopt;
    line = option.starts_with("--") ? "unrecognized option '" + std::string(option) + "'"
                                    : "invalid option -- '" + std::string(1, option[1]) + "'";
  } else {
    return std::nullopt;
  }
  SlurmUsageError e;
  e.text = std::string(command) + ": " + line + "\n";
  if (command != "sacct") e.text += "Try \"" + std::string(command) + " --help\" for more information\n";
  if (command == "sbatch" || command == "salloc" || command == "srun") e.exit_code = 255;
  return e;
}

const std::vector<std::string_view>& slurm_command_names() {
  static const std::vector<std::string_view> names = {"sbatch",  "srun",   "salloc", "squeue",
                                                      "scancel", "sacct",  "sinfo",  "scontrol",
                                                      "sprio",   "sshare", "sdiag",  "sacctmgr"};
  return names;
}

Result<SlurmTranslation> translate_slurm_command(std::string_view command,
                                                 const std::vector<std::string>& args,
                                                 const SlurmInvocation& invocation) {
  // --version/-V among the options, or `scontrol version`: worded as Debian's build words
  // it ("slurm-wlm 22.05.8"), the interface's version second for the tools that read it.
  const SlurmTranslation version{{}, std::string("slurm-fairway ") + kSlurmInterfaceVersion + "\n"};
  if (command == "scontrol" && !args.empty() && to_lower(args[0]) == "version") return version;
  for (const std::string& a : args) {
    if (a == "--" || a.size() < 2 || a[0] != '-') break;
    if (a == "--version" || a == "-V") return version;
  }
  if (command == "sbatch") return batch(args, invocation);
  if (command == "salloc") return submitting("alloc", "SALLOC_", args, invocation);
  if (command == "srun") return submitting("run", "SLURM_SRUN_", args, invocation);
  if (command == "squeue") return squeue(args, invocation);
  if (command == "scancel") return scancel(args, invocation);
  if (command == "sacct") return sacct(args);
  if (command == "sinfo") return sinfo(args);
  if (command == "scontrol") return translate_scontrol(args, invocation);
  if (command == "sprio") return sprio(args);
  if (command == "sshare") return sshare(args);
  if (command == "sdiag") return sdiag(args);
  if (command == "sacctmgr") return translate_sacctmgr(args);
  return invalid_argument("'" + std::string(command) + "' is not a Slurm command this front-end knows");
}

}  // namespace fairway::cli
