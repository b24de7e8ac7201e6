#include "client/api/job_request.h"

#include <algorithm>

#include <limits>
#include <utility>

#include "client/api/begin_time.h"
#include "client/api/job_script.h"
#include "shared/base/try.h"

namespace fairway::cli {
namespace {

std::string flag(std::string_view name, std::int32_t v) {
  return "--" + std::string(name) + "=" + std::to_string(v);
}

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Merges the GPU model of one more source into `type`; two different models conflict.
Status merge_gpu_type(std::string& type, const std::optional<GpuCount>& g, std::string_view option) {
  if (!g || g->type.empty()) return ok_status();
  if (!type.empty() && type != g->type) {
    return invalid_argument("--" + std::string(option) + " asks for GPU type \"" + g->type +
                            "\" but another option asks for \"" + type + "\"");
  }
  type = g->type;
  return ok_status();
}

// --export: ALL (everything, the default), NONE (only SLURM_* variables), or a list of
// names and NAME=value pairs, on top of everything when it starts with ALL.
Result<std::vector<wire::EnvVar>> exported_env(const std::optional<std::string>& spec,
                                               const std::vector<wire::EnvVar>& env) {
  if (!spec || *spec == "ALL") return env;
  std::vector<std::string> items;
  std::string_view rest = *spec;
  while (true) {
    const auto comma = rest.find(',');
    items.emplace_back(rest.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  const bool all = items.front() == "ALL";
  const bool none = items.front() == "NONE";
  std::vector<wire::EnvVar> out;
  for (const auto& [name, value] : env) {
    if (all || name.starts_with("SLURM_")) out.emplace_back(name, value);
  }
  for (std::size_t i = (all || none) ? 1 : 0; i < items.size(); ++i) {
    const std::string& item = items[i];
    if (item.empty() || item == "ALL" || item == "NONE" || item.front() == '=') {
      return invalid_argument("--export=" + *spec + ": bad entry \"" + item +
                              "\" (ALL or NONE come first; then NAME or NAME=VALUE)");
    }
    const auto eq = item.find('=');
    if (eq != std::string::npos) {
      out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
      continue;
    }
    for (const auto& [name, value] : env) {
      if (name == item) out.emplace_back(name, value);
    }
  }
  return out;
}

// What sbatch tells the job of its own request, as Slurm 22.05 sets them (only the options
// given): SLURM_MEM_PER_NODE/CPU/GPU, SLURM_GPUS*, SLURM_CPUS_PER_GPU, SLURM_NTASKS_PER_GPU.
void add_request_variables(const SubmitOptions& o, std::vector<wire::EnvVar>& env) {
  const auto gpus = [](const GpuCount& g) {
    return g.type.empty() ? std::to_string(g.count) : g.type + ":" + std::to_string(g.count);
  };
  const auto set = [&](const std::string& name, const std::string& value) {
    std::erase_if(env, [&](const wire::EnvVar& e) { return e.first == name; });
    env.emplace_back(name, value);
  };
  // --mem=0 (all of each node's memory) sets nothing, as sbatch.
  if (o.mem_per_node_mb && *o.mem_per_node_mb > 0)
    set("SLURM_MEM_PER_NODE", std::to_string(*o.mem_per_node_mb));
  if (o.mem_per_cpu_mb) set("SLURM_MEM_PER_CPU", std::to_string(*o.mem_per_cpu_mb));
  if (o.mem_per_gpu_mb) set("SLURM_MEM_PER_GPU", std::to_string(*o.mem_per_gpu_mb));
  if (o.gpus_per_task) {
    set("SLURM_GPUS_PER_TASK", gpus(*o.gpus_per_task));
  } else if (o.gpus) {
    set("SLURM_GPUS", gpus(*o.gpus));
  }
  if (o.gpus_per_node && !o.gpus_per_task) set("SLURM_GPUS_PER_NODE", gpus(*o.gpus_per_node));
  if (o.cpus_per_gpu) set("SLURM_CPUS_PER_GPU", std::to_string(*o.cpus_per_gpu));
  if (o.ntasks_per_gpu) set("SLURM_NTASKS_PER_GPU", std::to_string(*o.ntasks_per_gpu));
  // --export as given (sbatch passes it on so that srun inside exports the same).
  // With it, sbatch also says the job's environment was chosen (SLURM_GET_USER_ENV=1).
  if (o.export_spec && *o.export_spec != "ALL") {
    set("SLURM_EXPORT_ENV", *o.export_spec);
    set("SLURM_GET_USER_ENV", "1");
  }
  // --open-mode as sbatch passes it on: "a" (append) or "t" (truncate).
  if (o.open_append) set("SLURM_OPEN_MODE", *o.open_append ? "a" : "t");
  // Options the scheduler does not use reach the job as sbatch passes them on (hint_nomt,
  // threads_pc, tps, tpc, get_user_env, dist_*, dep_*).
  for (const auto& [name, value] : o.passed_on) set(name, value);
  if (o.passed_on.end() != std::find_if(o.passed_on.begin(), o.passed_on.end(), [](const auto& v) {
        return v.first == "SLURM_HINT" && (v.second == "nomultithread" || v.second == "compute_bound");
      })) {
    set("SLURM_THREADS_PER_CORE", "1");  // what those hints mean, as sbatch says it
  }
  if (o.distribution) {
    const std::string& d = *o.distribution;
    if (d.starts_with("plane=")) {
      set("SLURM_DISTRIBUTION", "plane");
      set("SLURM_DIST_PLANESIZE", d.substr(6));
    } else {
      set("SLURM_DISTRIBUTION", d);
    }
  }
  if (o.dependency_text) set("SLURM_JOB_DEPENDENCY", *o.dependency_text);
}

}  // namespace

void resolve_node_count(SubmitOptions& o) {
  // -N MIN-MAX: as many nodes as tasks within the range (one task per node, as Slurm spread
  // -N1-2 -n2), else the least.
  if (o.nodes && o.nodes_max) {
    o.nodes = o.ntasks ? std::clamp(*o.ntasks, *o.nodes, *o.nodes_max) : *o.nodes;
    o.nodes_max.reset();
  }
  // -n with --ntasks-per-node and no -N: as many nodes as that takes (n4tpn2: 2 x 2).
  if (!o.nodes && o.ntasks && o.ntasks_per_node && *o.ntasks > *o.ntasks_per_node) {
    o.nodes = (*o.ntasks + *o.ntasks_per_node - 1) / *o.ntasks_per_node;
  }
  // -w a,b without -N: Slurm gives the job every node named (w_both ran on vm and vm1).
  if (!o.nodes && o.nodelist && o.nodelist->size() > 1 &&
      (!o.ntasks || *o.ntasks >= static_cast<std::int32_t>(o.nodelist->size()))) {
    o.nodes = static_cast<std::int32_t>(o.nodelist->size());
  }
  // Fewer tasks than nodes: Slurm warns and gives the job one node per task.
  if (o.nodes && o.ntasks && !o.ntasks_per_node && *o.ntasks < *o.nodes) {
    o.warnings.push_back("can't run " + std::to_string(*o.ntasks) + " processes on " +
                         std::to_string(*o.nodes) + " nodes, setting nnodes to " + std::to_string(*o.ntasks));
    o.nodes = o.ntasks;
  }
}

Result<SubmitOptions> resolve_gpu_relative(SubmitOptions o) {
  if (o.gpus_per_task) {
    if (o.gpus || o.gpus_per_node || o.gres) {
      return invalid_argument(
          "--gpus-per-task cannot be combined with --gpus, --gpus-per-node or --gres here");
    }
    const GpuCount& g = *o.gpus_per_task;
    // As sbatch: GPUs per task mean nothing without a task count (or GPUs to share).
    if (!o.ntasks && !o.ntasks_per_node) {
      return invalid_argument("--gpus-per-task used without either --gpus or -n/--ntasks is not allowed");
    }
    if (o.nodes) {
      const std::int64_t per_node = o.ntasks_per_node ? *o.ntasks_per_node
                                    : o.ntasks        ? (*o.ntasks + *o.nodes - 1) / *o.nodes
                                                      : 1;
      o.gpus_per_node = GpuCount{g.type, static_cast<std::int32_t>(per_node * g.count)};
    } else {
      const std::int64_t tasks = o.ntasks.value_or(o.ntasks_per_node.value_or(1));
      o.gpus = GpuCount{g.type, static_cast<std::int32_t>(tasks * g.count)};
    }
  }
  if (o.ntasks_per_gpu && !o.ntasks) {
    std::int64_t gpus = 0;
    if (o.gpus)
      gpus = o.gpus->count;
    else if (o.gpus_per_node)
      gpus = static_cast<std::int64_t>(o.gpus_per_node->count) * o.nodes.value_or(1);
    else if (o.gres)
      gpus = static_cast<std::int64_t>(o.gres->count) * o.nodes.value_or(1);
    if (gpus == 0) return invalid_argument("--ntasks-per-gpu needs GPUs (--gpus, --gpus-per-node or --gres)");
    o.ntasks = static_cast<std::int32_t>(gpus * *o.ntasks_per_gpu);
  }
  return o;
}

Result<ResourceRequest> map_resources(const SubmitOptions& o) {
  ResourceRequest r;
  const std::int64_t cpus_per_task = o.cpus_per_task.value_or(1);
  for (const auto& [g, name] : {std::pair{&o.gpus, "gpus"}, std::pair{&o.gpus_per_node, "gpus-per-node"},
                                std::pair{&o.gres, "gres"}}) {
    FAIRWAY_TRY(merge_gpu_type(r.gpu_type, *g, name));
  }
  std::int64_t cores = 0;
  std::int64_t gpus = 0;
  if (!o.nodes) {
    const std::int64_t ntasks = o.ntasks.value_or(o.ntasks_per_node.value_or(1));
    cores = ntasks * cpus_per_task;
    if (o.gpus) {
      gpus = o.gpus->count;
    } else if (o.gpus_per_node) {
      gpus = o.gpus_per_node->count;
    } else if (o.gres) {
      gpus = o.gres->count;
    }
  } else {
    const std::int32_t n = *o.nodes;
    r.nodes = n;
    std::int64_t tasks_per_node = 1;
    if (o.ntasks_per_node) {
      tasks_per_node = *o.ntasks_per_node;
    } else if (o.ntasks) {
      if (*o.ntasks < n) {
        return invalid_argument(flag("ntasks", *o.ntasks) + " is fewer than " + flag("nodes", n) +
                                ": every node needs a task");
      }
      tasks_per_node = (*o.ntasks + n - 1) / n;
    }
    cores = tasks_per_node * cpus_per_task;
    if (o.gpus_per_node) {
      gpus = o.gpus_per_node->count;
    } else if (o.gres) {
      gpus = o.gres->count;
    } else if (o.gpus) {
      if (o.gpus->count % n != 0) {
        return invalid_argument(flag("gpus", o.gpus->count) + " cannot be spread evenly over " +
                                flag("nodes", n) + "; use --gpus-per-node");
      }
      gpus = o.gpus->count / n;
    }
  }
  // --cpus-per-gpu: that many cores for each GPU (on each node with -N).
  if (o.cpus_per_gpu) cores = std::max(cores, gpus * *o.cpus_per_gpu);
  // --mincpus: at least that many on each node (the mincpus row: 4 CPUs for one task).
  if (o.mincpus) cores = std::max<std::int64_t>(cores, *o.mincpus);
  if (cores > std::numeric_limits<std::int32_t>::max()) {
    return invalid_argument("--ntasks x --cpus-per-task = " + std::to_string(cores) + " cores is too many");
  }
  r.cores = static_cast<std::int32_t>(cores);
  r.gpus = static_cast<std::int32_t>(gpus);
  return r;
}

Result<BuiltSubmission> build_submission(const SubmitCommand& cmd, std::string_view script_text,
                                         const SubmitContext& ctx) {
  BuiltSubmission out;
  SubmitOptions options;
  wire::JobProgram& program = out.request.program;
  if (cmd.wrap) {
    program.argv = {"/bin/sh", "-c", *cmd.wrap};
  } else {
    // As sbatch: a script saved with DOS line breaks would not run under its shell.
    if (script_text.find("\r\n") != std::string_view::npos) {
      return invalid_argument(
          cmd.script_path +
          ": Batch script contains DOS line breaks (\\r\\n) instead of expected UNIX line breaks (\\n)");
    }
    auto directives = read_directives(script_text);
    if (!directives) return std::unexpected(directives.error().with_context(cmd.script_path));
    for (const Directive& d : *directives) {
      const std::string where = cmd.script_path + " line " + std::to_string(d.line);
      const std::size_t warned = options.warnings.size();
      if (auto st = parse_directive_words(d.words, options); !st) {
        return std::unexpected(st.error().with_context(where));
      }
      for (std::size_t w = warned; w < options.warnings.size(); ++w) {
        options.warnings[w] = where + ": " + options.warnings[w];
      }
    }
    program.script = std::string(script_text);
    program.argv = cmd.script_args;
  }
  options.overlay(cmd.options);
  if (cmd.distribution) options.distribution = cmd.distribution;  // sbatch -m on the command line
  resolve_node_count(options);
  // The GPU request as asked, before it becomes totals: scontrol and squeue show it so.
  GpuAsk gpu_ask;
  if (options.gpus_per_task) {
    gpu_ask = GpuAsk{GpuAskedPer::kTask, options.gpus_per_task->count};
  } else if (options.gpus_per_node || options.gres) {
    gpu_ask =
        GpuAsk{GpuAskedPer::kNode, (options.gpus_per_node ? options.gpus_per_node : options.gres)->count};
  } else if (options.gpus) {
    gpu_ask = GpuAsk{GpuAskedPer::kJob, options.gpus->count};
  }
  gpu_ask.cpus_per_gpu = options.cpus_per_gpu.value_or(0);
  gpu_ask.mem_per_gpu_mb = options.mem_per_gpu_mb.value_or(0);
  FAIRWAY_TRY_ASSIGN(resolved, resolve_gpu_relative(options));
  options = std::move(resolved);
  out.warnings = options.warnings;
  out.wait = options.wait.value_or(false);
  out.quiet = options.quiet.value_or(false);
  out.request.test_only = options.test_only.value_or(false);

  FAIRWAY_TRY_ASSIGN(resources, map_resources(options));

  JobSpec& spec = out.request.spec;
  spec.resources = resources;
  spec.gpu_ask = gpu_ask;
  spec.user = ctx.user;
  spec.account = options.account.value_or("");
  spec.partition = options.partition.value_or("");
  spec.qos = options.qos.value_or("");
  spec.name = options.job_name.value_or(cmd.wrap ? "wrap" : base_name(cmd.script_path));
  // None given: 0, which the coordinator reads as the partition's default_time.
  spec.time_limit = options.time.value_or(Duration());
  spec.requeue = options.requeue.value_or(true);
  spec.hold = options.hold.value_or(false);
  spec.tasks = TaskLayout{options.ntasks.value_or(0), options.cpus_per_task.value_or(0),
                          options.ntasks_per_node.value_or(0)};
  spec.comment = options.comment.value_or("");
  spec.reservation = options.reservation.value_or("");
  if (options.dependency) {
    spec.dependencies = options.dependency->clauses;
    spec.dependency_any = options.dependency->any;
    out.dependency_tasks = options.dependency->tasks;
  }
  spec.kill_on_invalid_dep = options.kill_on_invalid_dep.value_or(false);
  spec.nice = options.nice.value_or(0);
  if (options.array) spec.array = *options.array;
  if (options.mem_per_node_mb && options.mem_per_cpu_mb) {
    return invalid_argument("--mem and --mem-per-cpu cannot be given together");
  }
  if (options.mem_per_gpu_mb && (options.mem_per_node_mb || options.mem_per_cpu_mb)) {
    return invalid_argument("--mem-per-gpu cannot be given with --mem or --mem-per-cpu");
  }
  spec.resources.memory_per_node_mb = options.mem_per_node_mb.value_or(0);
  spec.resources.memory_per_cpu_mb = options.mem_per_cpu_mb.value_or(0);
  if (options.mem_per_gpu_mb && spec.resources.gpus > 0) {
    spec.resources.memory_per_node_mb = *options.mem_per_gpu_mb * spec.resources.gpus;
  }
  spec.exclusive = options.exclusive.value_or(false);
  spec.only_nodes = options.nodelist.value_or(std::vector<std::string>{});
  spec.excluded_nodes = options.exclude.value_or(std::vector<std::string>{});
  spec.constraint = options.constraint.value_or("");
  spec.mail_events = options.mail_events.value_or(0);
  spec.mail_user = options.mail_user.value_or("");
  if (options.signal) {
    spec.warn_signal = options.signal->signal;
    spec.warn_before_s = options.signal->seconds_before;
    spec.warn_batch_only = options.signal->batch_only;
  }
  if (options.begin) {
    FAIRWAY_TRY_ASSIGN(begin, parse_begin_time(*options.begin, ctx.now));
    if (begin > ctx.now) spec.begin = begin;
  }

  const std::string dir = options.chdir.value_or(ctx.cwd);
  program.working_dir = dir.starts_with('/') ? dir : ctx.cwd + "/" + dir;
  FAIRWAY_TRY_ASSIGN(env, exported_env(options.export_spec, ctx.env));
  program.env = std::move(env);
  if (!ctx.host.empty()) program.env.emplace_back("SLURM_SUBMIT_HOST", ctx.host);
  // Where sbatch ran, which -D does not change (an outer job's value is replaced).
  std::erase_if(program.env, [](const wire::EnvVar& v) { return v.first == "SLURM_SUBMIT_DIR"; });
  program.env.emplace_back("SLURM_SUBMIT_DIR", ctx.cwd);
  // As sbatch: a SLURM_UMASK the caller set already wins.
  const bool umask_set = std::any_of(program.env.begin(), program.env.end(),
                                     [](const wire::EnvVar& v) { return v.first == "SLURM_UMASK"; });
  if (!ctx.umask.empty() && !umask_set) program.env.emplace_back("SLURM_UMASK", ctx.umask);
  if (ctx.priority) program.env.emplace_back("SLURM_PRIO_PROCESS", std::to_string(*ctx.priority));
  add_request_variables(options, program.env);
  program.open_append = options.open_append.value_or(false);
  program.stdout_path = options.output.value_or("");
  if (!options.output && options.default_output) {
    program.stdout_path = *options.default_output;
    if (options.array) {
      for (auto at = program.stdout_path.find("%j"); at != std::string::npos;
           at = program.stdout_path.find("%j", at + 5)) {
        program.stdout_path.replace(at, 2, "%A_%a");
      }
    }
  }
  program.stderr_path = options.error.value_or("");
  out.request.client_token = ctx.client_token;
  return out;
}

}  // namespace fairway::cli
