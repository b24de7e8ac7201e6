#include "client/api/submit_options.h"
#include "client/api/submit_option_table.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <csignal>
#include <limits>
#include <span>
#include <string_view>

#include "shared/base/duration_format.h"
#include "shared/base/try.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

using namespace sbatch_options;

// sbatch's range for --nice.
constexpr std::int32_t kMaxNice = 2147483645;

std::string quoted(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

Result<std::int32_t> positive_count(std::string_view option, std::string_view value) {
  std::int32_t v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec == std::errc::result_out_of_range) {
    return invalid_argument("--" + std::string(option) + "=" + std::string(value) + ": number too large");
  }
  if (ec != std::errc() || end != value.data() + value.size()) {
    return invalid_argument("--" + std::string(option) + "=" + std::string(value) + ": not a number");
  }
  if (v <= 0) {
    return invalid_argument("--" + std::string(option) + "=" + std::string(value) + ": must be at least 1");
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

void pass_on(const OptionSpec& spec, std::string_view value, SubmitOptions& o) {
  if (spec.variable.empty()) return;
  const auto eq = spec.variable.find('=');
  std::string name(spec.variable.substr(0, eq));
  std::string shown =
      eq == std::string_view::npos ? std::string(value) : std::string(spec.variable.substr(eq + 1));
  std::erase_if(o.passed_on, [&](const auto& v) { return v.first == name; });
  o.passed_on.emplace_back(std::move(name), std::move(shown));
}

Status apply(const OptionSpec& spec, std::string_view value, SubmitOptions& o) {
  const Opt opt = spec.opt;
  const std::string_view name = spec.long_name;
  const auto set_count = [&](std::optional<std::int32_t>& field) -> Status {
    FAIRWAY_TRY_ASSIGN(n, positive_count(name, value));
    field = n;
    return ok_status();
  };
  const auto set_text = [&](std::optional<std::string>& field) -> Status {
    if (value.empty()) return invalid_argument("--" + std::string(name) + ": empty value");
    field = std::string(value);
    return ok_status();
  };
  switch (opt) {
    case Opt::kPartition:
      return set_text(o.partition);
    case Opt::kAccount:
      return set_text(o.account);
    case Opt::kQos:
      return set_text(o.qos);
    case Opt::kJobName:
      return set_text(o.job_name);
    case Opt::kOutput:
      return set_text(o.output);
    case Opt::kError:
      return set_text(o.error);
    case Opt::kChdir:
      return set_text(o.chdir);
    case Opt::kNtasks:
      return set_count(o.ntasks);
    case Opt::kNodes: {
      // -N MIN-MAX as Slurm takes it; a job gets a node count in that range.
      const auto dash = value.find('-');
      if (dash == std::string_view::npos || dash == 0) {
        o.nodes_max.reset();
        return set_count(o.nodes);
      }
      FAIRWAY_TRY_ASSIGN(lo, positive_count(name, value.substr(0, dash)));
      FAIRWAY_TRY_ASSIGN(hi, positive_count(name, value.substr(dash + 1)));
      if (lo > hi) {
        return invalid_argument("--nodes=" + std::string(value) + ": the minimum is above the maximum");
      }
      o.nodes = lo;
      o.nodes_max = hi;
      return ok_status();
    }
    case Opt::kCpusPerTask:
      return set_count(o.cpus_per_task);
    case Opt::kNtasksPerNode:
      return set_count(o.ntasks_per_node);
    case Opt::kGpus:
    case Opt::kGpusPerNode:
    case Opt::kGpusPerTask: {
      FAIRWAY_TRY_ASSIGN(g, gpu_count(name, value));
      (opt == Opt::kGpus ? o.gpus : opt == Opt::kGpusPerNode ? o.gpus_per_node : o.gpus_per_task) = g;
      return ok_status();
    }
    case Opt::kCpusPerGpu:
      return set_count(o.cpus_per_gpu);
    case Opt::kMinCpus:
      return set_count(o.mincpus);
    case Opt::kQuiet:
      o.quiet = true;
      return ok_status();
    case Opt::kNtasksPerGpu:
      return set_count(o.ntasks_per_gpu);
    case Opt::kGres: {
      FAIRWAY_TRY_ASSIGN(g, gres_gpus(value));
      o.gres = g;
      return ok_status();
    }
    case Opt::kTime: {
      auto d = parse_walltime(value);
      if (!d) {
        return invalid_argument("--time=" + std::string(value) + ": " + d.error().message);
      }
      if (*d < Duration::seconds(0)) {
        return invalid_argument("--time=" + std::string(value) + ": must not be negative");
      }
      // "A time limit of zero requests that no time limit be imposed" (sbatch(1)).
      if (*d == Duration::seconds(0)) {
        o.time = Duration::infinite();
        return ok_status();
      }
      // Slurm keeps limits in whole minutes, rounded up: 00:00:50 is 1 minute, 19:59 is 20.
      o.time = d->is_infinite() ? *d : Duration::minutes((d->count() + 59) / 60);
      return ok_status();
    }
    case Opt::kNoRequeue:
      o.requeue = false;
      return ok_status();
    case Opt::kRequeue:
      o.requeue = true;
      return ok_status();
    case Opt::kHold:
      o.hold = true;
      return ok_status();
    case Opt::kMem:
    case Opt::kMemPerCpu:
    case Opt::kMemPerGpu: {
      auto mb = parse_memory_mb(value);
      if (!mb)
        return invalid_argument("--" + std::string(name) + "=" + std::string(value) + ": " +
                                mb.error().message);
      (opt == Opt::kMem         ? o.mem_per_node_mb
       : opt == Opt::kMemPerCpu ? o.mem_per_cpu_mb
                                : o.mem_per_gpu_mb) = *mb;
      return ok_status();
    }
    case Opt::kWarnIgnored: {
      const std::string shown =
          value.empty() ? "--" + std::string(name) : "--" + std::string(name) + "=" + std::string(value);
      o.warnings.push_back(shown + " ignored: " + std::string(spec.why));
      pass_on(spec, value, o);
      return ok_status();
    }
    case Opt::kSilent:
      pass_on(spec, value, o);
      return ok_status();
    // srun's: a batch job as a whole has no tasks to bind or kill (the srun in it reads
    // its own options).
    case Opt::kKillOnBadExit:
    case Opt::kCpuBind:
    case Opt::kExact:
      return ok_status();
    case Opt::kDistribution:
      return set_text(o.distribution);
    case Opt::kRefused:
      return invalid_argument("--" + std::string(name) + ": " + std::string(spec.why));
    case Opt::kComment:
      o.comment = std::string(value);
      return ok_status();
    case Opt::kReservation:
      if (value.empty()) return invalid_argument("--reservation needs a reservation name");
      o.reservation = std::string(value);
      return ok_status();
    case Opt::kWait:
      o.wait = true;
      return ok_status();
    case Opt::kTestOnly:
      o.test_only = true;
      return ok_status();
    case Opt::kMailType: {
      FAIRWAY_TRY_ASSIGN(events, parse_mail_types(value, o.warnings));
      o.mail_events = events;
      return ok_status();
    }
    case Opt::kMailUser: {
      // It becomes a mail header: nothing that could start another one.
      const bool ok =
          !value.empty() && value.size() <= 254 && std::all_of(value.begin(), value.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) ||
                   std::string_view("@._%+-").find(c) != std::string_view::npos;
          });
      if (!ok) return invalid_argument("--mail-user=" + std::string(value) + ": not a mail address");
      o.mail_user = std::string(value);
      return ok_status();
    }
    case Opt::kSignal: {
      FAIRWAY_TRY_ASSIGN(w, parse_signal_option(value));
      o.signal = w;
      return ok_status();
    }
    case Opt::kExclusive:
      // sbatch's values; "oversubscribe" asks for sharing, which a job has without it.
      if (value == "oversubscribe") {
        o.exclusive = false;
        return ok_status();
      }
      if (!value.empty() && value != "exclusive" && value != "user" && value != "mcs") {
        return invalid_argument(
            "--exclusive=" + std::string(value) +
            ": Invalid --exclusive specification (expected no value, exclusive, oversubscribe, user or mcs)");
      }
      o.exclusive = true;  // user/mcs sharing rules come down to whole nodes here
      return ok_status();
    case Opt::kNodelist:
    case Opt::kExclude: {
      auto hosts = expand_hostlist(value);
      if (!hosts)
        return invalid_argument("--" + std::string(name) + "=" + std::string(value) + ": " +
                                hosts.error().message);
      if (hosts->empty()) return invalid_argument("--" + std::string(name) + ": empty node list");
      (opt == Opt::kNodelist ? o.nodelist : o.exclude) = std::move(*hosts);
      return ok_status();
    }
    case Opt::kConstraint:
      return set_text(o.constraint);
    case Opt::kOpenMode:
      if (value != "append" && value != "truncate") {
        return invalid_argument("--open-mode=" + std::string(value) + ": expected append or truncate");
      }
      o.open_append = value == "append";
      return ok_status();
    case Opt::kExport:
      return set_text(o.export_spec);
    case Opt::kDependency: {
      o.dependency_text = std::string(value);
      if (value.empty()) {  // Slurm: an empty dependency clears the earlier ones
        o.dependency = DependencyOption{};
        return ok_status();
      }
      FAIRWAY_TRY_ASSIGN(d, parse_dependency_option(value));
      o.dependency = std::move(d);
      return ok_status();
    }
    case Opt::kKillOnInvalidDep:
      if (value != "yes" && value != "no") {
        return invalid_argument("--kill-on-invalid-dep=" + std::string(value) + ": expected yes or no");
      }
      o.kill_on_invalid_dep = value == "yes";
      return ok_status();
    case Opt::kBegin:
      return set_text(o.begin);
    case Opt::kArray: {
      // The coordinator holds the indices to its limits.max_array_size.
      FAIRWAY_TRY_ASSIGN(a, parse_array_spec(value, kMaxArrayIndex));
      o.array = std::move(a);
      return ok_status();
    }
    case Opt::kNice: {
      if (value.empty()) {
        o.nice = 100;  // sbatch's --nice without a value
        return ok_status();
      }
      std::int32_t v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || end != value.data() + value.size() || v < -kMaxNice || v > kMaxNice) {
        return invalid_argument("--nice=" + std::string(value) + ": expected a whole number from " +
                                std::to_string(-kMaxNice) + " to " + std::to_string(kMaxNice));
      }
      o.nice = v;
      return ok_status();
    }
    default:
      break;
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
  if (p.spec == nullptr) return make_error(ErrorCode::kNotFound, "unknown option " + quoted(word));
  const std::string display = "--" + std::string(p.spec->long_name);
  switch (p.spec->value) {
    case Value::kNone:
      if (inline_value) return invalid_argument(display + " takes no value (got " + quoted(word) + ")");
      return p;
    case Value::kOptional:
      if (inline_value) p.value = *inline_value;
      return p;
    case Value::kRequired:
      break;
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

bool is_option_word(const std::string& w) {
  return w.size() > 1 && w[0] == '-';
}

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
  take(default_output, over.default_output);
  take(chdir, over.chdir);
  take(ntasks, over.ntasks);
  if (over.nodes) {
    nodes = over.nodes;
    nodes_max = over.nodes_max;
  }
  take(cpus_per_task, over.cpus_per_task);
  take(ntasks_per_node, over.ntasks_per_node);
  take(gpus, over.gpus);
  take(gpus_per_node, over.gpus_per_node);
  take(gres, over.gres);
  take(time, over.time);
  take(requeue, over.requeue);
  take(hold, over.hold);
  take(comment, over.comment);
  take(reservation, over.reservation);
  take(open_append, over.open_append);
  take(export_spec, over.export_spec);
  take(dependency, over.dependency);
  take(kill_on_invalid_dep, over.kill_on_invalid_dep);
  take(begin, over.begin);
  take(nice, over.nice);
  take(array, over.array);
  take(wait, over.wait);
  take(test_only, over.test_only);
  take(quiet, over.quiet);
  take(signal, over.signal);
  take(mail_events, over.mail_events);
  take(mail_user, over.mail_user);
  take(exclusive, over.exclusive);
  take(nodelist, over.nodelist);
  take(exclude, over.exclude);
  take(constraint, over.constraint);
  take(gpus_per_task, over.gpus_per_task);
  take(cpus_per_gpu, over.cpus_per_gpu);
  take(ntasks_per_gpu, over.ntasks_per_gpu);
  take(mem_per_gpu_mb, over.mem_per_gpu_mb);
  take(mincpus, over.mincpus);
  take(distribution, over.distribution);
  take(dependency_text, over.dependency_text);
  for (const auto& [name, value] : over.passed_on) {
    std::erase_if(passed_on, [&](const auto& v) { return v.first == name; });
    passed_on.emplace_back(name, value);
  }
  // --mem and --mem-per-cpu exclude each other: the later source's choice wins whole.
  if (over.mem_per_node_mb || over.mem_per_cpu_mb) {
    mem_per_node_mb = over.mem_per_node_mb;
    mem_per_cpu_mb = over.mem_per_cpu_mb;
  }
  warnings.insert(warnings.end(), over.warnings.begin(), over.warnings.end());
}

Status parse_directive_words(const std::vector<std::string>& words, SubmitOptions& out) {
  std::size_t i = 0;
  while (i < words.size()) {
    if (!is_option_word(words[i])) {
      return invalid_argument("unexpected word " + quoted(words[i]) + " (expected an option)");
    }
    const std::size_t at = i;
    auto p = next_option(words, i);
    if (!p && p.error().code == ErrorCode::kNotFound) {
      // A directive from a newer Slurm or another site: run the job, say what was skipped.
      // Its value, if it took one as a separate word, cannot be told apart from the next
      // option, so the rest of the line goes with it.
      std::string rest;
      for (std::size_t k = at; k < words.size(); ++k) rest += (k > at ? " " : "") + words[k];
      out.warnings.push_back("unknown directive " + quoted(rest) + " ignored");
      return ok_status();
    }
    if (!p) return std::unexpected(p.error());
    if (p->spec->command_line_only) {
      return invalid_argument("--" + std::string(p->spec->long_name) + " is not allowed in a job script");
    }
    FAIRWAY_TRY(apply(*p->spec, p->value, out));
  }
  return ok_status();
}

Result<SubmitCommand> parse_submit_command_line(const std::vector<std::string>& args, bool command_optional) {
  SubmitCommand cmd;
  std::size_t i = 0;
  while (i < args.size() && is_option_word(args[i])) {
    if (args[i] == "--") {
      ++i;
      break;
    }
    FAIRWAY_TRY_ASSIGN(p, next_option(args, i));
    switch (p.spec->opt) {
      case Opt::kWrap:
        cmd.wrap = p.value;
        break;
      case Opt::kParsable:
        cmd.parsable = true;
        break;
      case Opt::kJson:
        cmd.json = true;
        break;
      case Opt::kLabel:
        cmd.label = true;
        break;
      case Opt::kJobId:
        cmd.jobid = p.value;
        break;
      case Opt::kPty:
        cmd.pty = true;
        break;
      case Opt::kKillOnBadExit:
        if (p.value != "" && p.value != "0" && p.value != "1") {
          return invalid_argument("--kill-on-bad-exit=" + p.value + ": expected 0 or 1");
        }
        cmd.kill_on_bad_exit = p.value != "0";
        break;
      case Opt::kMpi:
        cmd.mpi = p.value;
        break;
      case Opt::kCpuBind:
        cmd.cpu_bind = p.value;
        break;
      case Opt::kExact:
        cmd.exact = true;
        break;
      case Opt::kDistribution:
        cmd.distribution = p.value;
        break;
      case Opt::kCoordinator:
        cmd.coordinator = p.value;
        break;
      case Opt::kConfig:
        cmd.config = p.value;
        break;
      case Opt::kHelp:
        cmd.help = true;
        return cmd;
      default:
        FAIRWAY_TRY(apply(*p.spec, p.value, cmd.options));
    }
  }
  if (i < args.size()) {
    if (cmd.wrap) {
      return invalid_argument("--wrap and a script " + quoted(args[i]) + " cannot be given together");
    }
    cmd.script_path = args[i++];
    cmd.script_args.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  } else if (!cmd.wrap && !command_optional) {
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
      --ntasks-per-node=N (--tasks-per-node)           -G, --gpus=[TYPE:]N
      --gpus-per-node=[TYPE:]N  --gpus-per-task=[TYPE:]N  --gres=gpu[:TYPE]:N
      --cpus-per-gpu=N      --ntasks-per-gpu=N        --mem-per-gpu=SIZE
  -t, --time=TIME (whole minutes, rounded up)         -J, --job-name=NAME
  -o, --output=PATH         -e, --error=PATH          -D, --chdir=DIR
      --requeue | --no-requeue                        -H, --hold
      --comment=TEXT        --open-mode=append|truncate
      --reservation=NAME    run in that project reservation (its nodes, its window)
      --export=ALL|NONE|[ALL,]VAR[=VALUE],...        -b, --begin=TIME
  -d, --dependency=after|afterany|afterok|afternotok:ID[:ID...][,|?...] or singleton
      --kill-on-invalid-dep=yes|no                    --nice[=N]
  -W, --wait                wait for the job to end; exit with its exit code
      --mem=SIZE | --mem-per-cpu=SIZE  the job's memory on each node (500M, 4G;
                            reserved by the scheduler, enforced by its cgroup)
  -a, --array=INDICES[%N]   a job array: 1-100, 1-99:2, 1,5,7; %N runs at most N at once
  -w, --nodelist=HOSTLIST    -x, --exclude=HOSTLIST   -C, --constraint=FEAT[&FEAT|...]
      --exclusive           whole nodes, shared with no other job
      --signal=[B:]SIG[@SECONDS]  SIG that long (default 60 s) before the time limit
      --mail-type=BEGIN,END,FAIL,REQUEUE,ALL|NONE  --mail-user=ADDRESS
Accepted with a warning (not done yet): --tmp, --input. Unknown #SBATCH
  lines are skipped with a warning; unknown options on the command line are errors.
      --wrap=COMMAND        --parsable  --json        --coordinator=ENDPOINT
      --config=FILE
)";
}

}  // namespace fairway::cli
