#include "coordinator/cli/submit_options.h"

#include <charconv>
#include <limits>
#include <span>
#include <string_view>

#include "shared/base/duration_format.h"

namespace fairway::cli {
namespace {

enum class Opt {
  kPartition, kAccount, kQos, kNtasks, kNodes, kCpusPerTask, kNtasksPerNode, kGpus,
  kGpusPerNode, kGres, kTime, kJobName, kOutput, kError, kNoRequeue, kRequeue, kHold, kChdir,
  kMem,
  // Command line only:
  kWrap, kParsable, kCoordinator, kConfig, kHelp,
};

struct OptionSpec {
  Opt opt;
  char short_name;  // '\0': none
  std::string_view long_name;
  bool takes_value;
  bool command_line_only;
};

constexpr OptionSpec kOptions[] = {
    {Opt::kPartition, 'p', "partition", true, false},
    {Opt::kAccount, 'A', "account", true, false},
    {Opt::kQos, 'q', "qos", true, false},
    {Opt::kNtasks, 'n', "ntasks", true, false},
    {Opt::kNodes, 'N', "nodes", true, false},
    {Opt::kCpusPerTask, 'c', "cpus-per-task", true, false},
    {Opt::kNtasksPerNode, '\0', "ntasks-per-node", true, false},
    {Opt::kGpus, 'G', "gpus", true, false},
    {Opt::kGpusPerNode, '\0', "gpus-per-node", true, false},
    {Opt::kGres, '\0', "gres", true, false},
    {Opt::kTime, 't', "time", true, false},
    {Opt::kJobName, 'J', "job-name", true, false},
    {Opt::kOutput, 'o', "output", true, false},
    {Opt::kError, 'e', "error", true, false},
    {Opt::kNoRequeue, '\0', "no-requeue", false, false},
    {Opt::kRequeue, '\0', "requeue", false, false},
    {Opt::kHold, 'H', "hold", false, false},
    {Opt::kChdir, 'D', "chdir", true, false},
    {Opt::kMem, '\0', "mem", true, false},
    {Opt::kWrap, '\0', "wrap", true, true},
    {Opt::kParsable, '\0', "parsable", false, true},
    {Opt::kCoordinator, '\0', "coordinator", true, true},
    {Opt::kConfig, '\0', "config", true, true},
    {Opt::kHelp, 'h', "help", false, true},
};

const OptionSpec* find_long(std::string_view name) {
  for (const auto& o : kOptions) {
    if (o.long_name == name) return &o;
  }
  return nullptr;
}

const OptionSpec* find_short(char c) {
  for (const auto& o : kOptions) {
    if (o.short_name == c) return &o;
  }
  return nullptr;
}

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

Result<std::int32_t> positive_count(std::string_view option, std::string_view value) {
  std::int32_t v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec == std::errc::result_out_of_range) {
    return invalid_argument("--" + std::string(option) + "=" + std::string(value) +
                            ": number too large");
  }
  if (ec != std::errc() || end != value.data() + value.size()) {
    return invalid_argument("--" + std::string(option) + "=" + std::string(value) +
                            ": not a number");
  }
  if (v <= 0) {
    return invalid_argument("--" + std::string(option) + "=" + std::string(value) +
                            ": must be at least 1");
  }
  return v;
}

// "N" or "type:N" (--gpus, --gpus-per-node).
Result<GpuCount> gpu_count(std::string_view option, std::string_view value) {
  GpuCount g;
  std::string_view count = value;
  if (const auto colon = value.rfind(':'); colon != std::string_view::npos) {
    g.type = std::string(value.substr(0, colon));
    count = value.substr(colon + 1);
    if (g.type.empty() || g.type.find(':') != std::string::npos) {
      return invalid_argument("--" + std::string(option) + "=" + std::string(value) +
                              ": expected N or TYPE:N");
    }
  }
  auto n = positive_count(option, count);
  if (!n) {
    return invalid_argument("--" + std::string(option) + "=" + std::string(value) +
                            ": expected N or TYPE:N with N a positive number");
  }
  g.count = *n;
  return g;
}

// "gpu:N", "gpu:TYPE:N" or "gpu" (one GPU), as Slurm's --gres for GPUs.
Result<GpuCount> gres_gpus(std::string_view value) {
  const auto bad = [&](std::string_view why) {
    return invalid_argument("--gres=" + std::string(value) + ": " + std::string(why));
  };
  if (value == "gpu") return GpuCount{"", 1};
  if (!value.starts_with("gpu:")) return bad("only gpu[:TYPE]:N is supported");
  auto g = gpu_count("gres", value.substr(4));
  if (!g) return bad("expected gpu[:TYPE]:N with N a positive number");
  return g;
}

Status apply(Opt opt, std::string_view name, std::string_view value, SubmitOptions& o) {
  const auto set_count = [&](std::optional<std::int32_t>& field) -> Status {
    auto n = positive_count(name, value);
    if (!n) return std::unexpected(n.error());
    field = *n;
    return ok_status();
  };
  const auto set_text = [&](std::optional<std::string>& field) -> Status {
    if (value.empty()) return invalid_argument("--" + std::string(name) + ": empty value");
    field = std::string(value);
    return ok_status();
  };
  switch (opt) {
    case Opt::kPartition: return set_text(o.partition);
    case Opt::kAccount: return set_text(o.account);
    case Opt::kQos: return set_text(o.qos);
    case Opt::kJobName: return set_text(o.job_name);
    case Opt::kOutput: return set_text(o.output);
    case Opt::kError: return set_text(o.error);
    case Opt::kChdir: return set_text(o.chdir);
    case Opt::kNtasks: return set_count(o.ntasks);
    case Opt::kNodes: return set_count(o.nodes);
    case Opt::kCpusPerTask: return set_count(o.cpus_per_task);
    case Opt::kNtasksPerNode: return set_count(o.ntasks_per_node);
    case Opt::kGpus:
    case Opt::kGpusPerNode: {
      auto g = gpu_count(name, value);
      if (!g) return std::unexpected(g.error());
      (opt == Opt::kGpus ? o.gpus : o.gpus_per_node) = *g;
      return ok_status();
    }
    case Opt::kGres: {
      auto g = gres_gpus(value);
      if (!g) return std::unexpected(g.error());
      o.gres = *g;
      return ok_status();
    }
    case Opt::kTime: {
      auto d = parse_walltime(value);
      if (!d) {
        return invalid_argument("--time=" + std::string(value) + ": " + d.error().message);
      }
      if (*d <= Duration::seconds(0)) {
        return invalid_argument("--time=" + std::string(value) + ": must be positive");
      }
      o.time = *d;
      return ok_status();
    }
    case Opt::kNoRequeue: o.requeue = false; return ok_status();
    case Opt::kRequeue: o.requeue = true; return ok_status();
    case Opt::kHold: o.hold = true; return ok_status();
    case Opt::kMem:
      o.warnings.push_back("--mem=" + std::string(value) +
                           " ignored: memory is not scheduled yet");
      return ok_status();
    default: break;
  }
  return invalid_argument("--" + std::string(name) + ": not a job option");
}

struct Parsed {
  const OptionSpec* spec = nullptr;
  std::string value;
};

// Reads the option at words[i] (and its value, which may be the next word), advancing i.
// Precondition: words[i] starts with '-' and is longer than one character.
Result<Parsed> next_option(std::span<const std::string> words, std::size_t& i) {
  const std::string& word = words[i++];
  Parsed p;
  std::optional<std::string> inline_value;
  if (word.starts_with("--")) {
    const std::string_view body = std::string_view(word).substr(2);
    const auto eq = body.find('=');
    p.spec = find_long(body.substr(0, eq));
    if (eq != std::string_view::npos) inline_value = std::string(body.substr(eq + 1));
  } else {
    p.spec = find_short(word[1]);
    if (word.size() > 2) inline_value = word.substr(2);
  }
  if (p.spec == nullptr) return invalid_argument("unknown option " + quoted(word));
  const std::string display = "--" + std::string(p.spec->long_name);
  if (!p.spec->takes_value) {
    if (inline_value) return invalid_argument(display + " takes no value (got " + quoted(word) + ")");
    return p;
  }
  if (inline_value) {
    p.value = *inline_value;
  } else if (i < words.size()) {
    p.value = words[i++];
  } else {
    return invalid_argument(display + " needs a value");
  }
  return p;
}

bool is_option_word(const std::string& w) { return w.size() > 1 && w[0] == '-'; }

}  // namespace

void SubmitOptions::overlay(const SubmitOptions& over) {
  const auto take = [](auto& mine, const auto& theirs) {
    if (theirs) mine = theirs;
  };
  take(partition, over.partition);
  take(account, over.account);
  take(qos, over.qos);
  take(job_name, over.job_name);
  take(output, over.output);
  take(error, over.error);
  take(chdir, over.chdir);
  take(ntasks, over.ntasks);
  take(nodes, over.nodes);
  take(cpus_per_task, over.cpus_per_task);
  take(ntasks_per_node, over.ntasks_per_node);
  take(gpus, over.gpus);
  take(gpus_per_node, over.gpus_per_node);
  take(gres, over.gres);
  take(time, over.time);
  take(requeue, over.requeue);
  take(hold, over.hold);
  warnings.insert(warnings.end(), over.warnings.begin(), over.warnings.end());
}

Status parse_directive_words(const std::vector<std::string>& words, SubmitOptions& out) {
  std::size_t i = 0;
  while (i < words.size()) {
    if (!is_option_word(words[i])) {
      return invalid_argument("unexpected word " + quoted(words[i]) + " (expected an option)");
    }
    auto p = next_option(words, i);
    if (!p) return std::unexpected(p.error());
    if (p->spec->command_line_only) {
      return invalid_argument("--" + std::string(p->spec->long_name) +
                              " is not allowed in a job script");
    }
    if (auto st = apply(p->spec->opt, p->spec->long_name, p->value, out); !st) return st;
  }
  return ok_status();
}

Result<SubmitCommand> parse_submit_command_line(const std::vector<std::string>& args) {
  SubmitCommand cmd;
  std::size_t i = 0;
  while (i < args.size() && is_option_word(args[i])) {
    if (args[i] == "--") {
      ++i;
      break;
    }
    auto p = next_option(args, i);
    if (!p) return std::unexpected(p.error());
    switch (p->spec->opt) {
      case Opt::kWrap: cmd.wrap = p->value; break;
      case Opt::kParsable: cmd.parsable = true; break;
      case Opt::kCoordinator: cmd.coordinator = p->value; break;
      case Opt::kConfig: cmd.config = p->value; break;
      case Opt::kHelp: cmd.help = true; return cmd;
      default:
        if (auto st = apply(p->spec->opt, p->spec->long_name, p->value, cmd.options); !st) {
          return std::unexpected(st.error());
        }
    }
  }
  if (i < args.size()) {
    if (cmd.wrap) {
      return invalid_argument("--wrap and a script " + quoted(args[i]) +
                              " cannot be given together");
    }
    cmd.script_path = args[i++];
    cmd.script_args.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  } else if (!cmd.wrap) {
    return invalid_argument("submit needs a script path or --wrap \"command\"");
  }
  return cmd;
}

std::string submit_usage() {
  return R"(Usage: fairway submit [options] SCRIPT [ARGS...]
       fairway submit [options] --wrap "COMMAND"
Options (also read from #SBATCH / #FAIRWAY lines at the top of SCRIPT; the command line wins):
  -p, --partition=NAME      -A, --account=NAME        -q, --qos=NAME
  -n, --ntasks=N            -N, --nodes=N             -c, --cpus-per-task=N
      --ntasks-per-node=N   -G, --gpus=[TYPE:]N       --gpus-per-node=[TYPE:]N
      --gres=gpu[:TYPE]:N   -t, --time=TIME           -J, --job-name=NAME
  -o, --output=PATH         -e, --error=PATH          -D, --chdir=DIR
      --requeue | --no-requeue                        -H, --hold
      --mem=SIZE (accepted and ignored: memory is not scheduled yet)
      --wrap=COMMAND        --parsable                --coordinator=ENDPOINT
      --config=FILE
)";
}

}  // namespace fairway::cli
