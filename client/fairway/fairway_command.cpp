// The `fairway` command line, shared by the fairway binary and the Slurm front-end
// (fairway-slurm): parses the subcommand, finds the coordinator, hands over to the command
// functions. See fairway_command.h.
#include <unistd.h>
#include <ctime>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>
#include "client/fairway/fairway_command.h"

#include "client/api/coordinator_endpoint.h"
#include "client/api/coordinator_transport.h"
#include "client/api/option_values.h"
#include "client/api/submit_options.h"
#include "client/api/terminal_replies.h"
#include "client/fairway/alloc_command.h"
#include "client/fairway/commands.h"
#include "client/fairway/history_command.h"
#include "client/fairway/priority_command.h"
#include "client/fairway/queue_iterate.h"
#include "client/fairway/report_commands.h"
#include "client/fairway/run_command.h"
#include "client/fairway/submit_command.h"
#include "client/fairway/update_command.h"
#include "client/fairway/usage_report.h"
#include "client/views/fairway/reservation_views.h"
#include "client/views/text_format.h"
#include "shared/base/try.h"
#include "shared/net/step_stream.h"

namespace {

using namespace fairway;
using namespace fairway::cli;

// Requests name no user: the coordinator takes the caller from the kernel (ipc://) or a
// MUNGE credential (tcp://), never from the message. So the CLI makes no user-database
// lookup, which a statically linked program must not (NSS modules), and which costs an
// LDAP round trip at some sites.
std::string current_user() {
  return {};
}

// Global options given before the subcommand: --coordinator and --config, in both forms.
struct Globals {
  std::optional<std::string> coordinator;
  std::optional<std::string> config;
};

// Index of the subcommand word, after the global options; args.size() when there is none.
Result<std::size_t> scan_globals(const std::vector<std::string>& args, Globals& g) {
  std::size_t i = 0;
  while (i < args.size() && args[i].starts_with("--")) {
    const std::string& a = args[i];
    std::optional<std::string>* target = nullptr;
    std::string name = a;
    if (a.starts_with("--coordinator")) target = &g.coordinator, name = "--coordinator";
    if (a.starts_with("--config")) target = &g.config, name = "--config";
    if (target == nullptr) return i;  // CLI11 handles --help and reports the rest
    if (a.size() > name.size() && a[name.size()] == '=') {
      *target = a.substr(name.size() + 1);
      ++i;
    } else if (a == name && i + 1 < args.size()) {
      *target = args[i + 1];
      i += 2;
    } else {
      return invalid_argument(name + " needs a value");
    }
  }
  return i;
}

int submit_main(const std::vector<std::string>& rest, const Globals& g, const Output& io) {
  auto cmd = parse_submit_command_line(rest);
  if (!cmd) return report_error(io, cmd.error().message, kExitUsage);
  if (cmd->help) {
    io.out << submit_usage();
    return kExitOk;
  }
  auto ctx = current_submit_context();
  if (!ctx) return report_error(io, ctx.error().message, kExitFailure);
  CoordinatorTransport transport(endpoint_sources_from_environment(
      cmd->coordinator ? cmd->coordinator : g.coordinator, cmd->config ? cmd->config : g.config));
  if (cmd->run_only())
    return report_error(io, "--label, --jobid and --pty are options of fairway run", kExitUsage);
  return run_submit(*cmd, *ctx, std::ref(transport), io);
}

int alloc_main(const std::vector<std::string>& rest, const Globals& g, const Output& io) {
  if (!rest.empty() && (rest.front() == "--help" || rest.front() == "-h")) {
    io.out << "Usage: fairway alloc [SUBMIT OPTIONS] [COMMAND [ARGS...]]\n"
              "Waits for an interactive allocation (the options of fairway submit), runs COMMAND\n"
              "(default: $SHELL) here with SLURM_JOB_ID, SLURM_JOB_NODELIST and the rest of the\n"
              "allocation's environment, and ends the allocation when it exits.\n";
    return kExitOk;
  }
  auto ctx = current_submit_context();
  if (!ctx) return report_error(io, ctx.error().message, kExitFailure);
  CoordinatorTransport transport(endpoint_sources_from_environment(g.coordinator, g.config));
  return run_alloc(rest, *ctx, std::ref(transport), io);
}

// Where this host's step relays call in: $FAIRWAY_STEP_HOST, else the address this host
// reaches a tcp:// coordinator from (compute nodes reach it the same way), else loopback
// (an ipc:// coordinator: a single-host cluster, or set FAIRWAY_STEP_HOST).
std::string step_listen_host(const EndpointSources& sources) {
  if (const char* host = std::getenv("FAIRWAY_STEP_HOST"); host != nullptr && *host != '\0') return host;
  auto endpoint = resolve_coordinator_endpoint(sources);
  if (endpoint && endpoint->starts_with("tcp://")) {
    if (auto parts = net::parse_tcp_address(*endpoint)) {
      if (auto local = net::local_address_towards(parts->first)) return *local;
    }
  }
  return "127.0.0.1";
}

int run_main(const std::vector<std::string>& rest, const Globals& g, const Output& io) {
  auto ctx = current_submit_context();
  if (!ctx) return report_error(io, ctx.error().message, kExitFailure);
  const EndpointSources sources = endpoint_sources_from_environment(g.coordinator, g.config);
  StepSettings settings;
  settings.listen_host = step_listen_host(sources);
  CoordinatorTransport transport(sources);
  return run_step_command(rest, *ctx, std::ref(transport), io, settings);
}

int cli11_main(std::vector<std::string> args, const Globals& g, const Output& io) {
  CLI::App app{"fairway: submit and inspect jobs on a Fairway cluster", "fairway"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("fairway ") + FAIRWAY_VERSION);
  std::optional<std::string> coordinator = g.coordinator;
  std::optional<std::string> config = g.config;
  app.add_option("--coordinator", coordinator, "coordinator endpoint (or $FAIRWAY_COORDINATOR)");
  app.add_option("--config", config, "config file (or $FAIRWAY_CONF, /etc/fairway/fairway.toml)");
  app.add_subcommand("submit", "submit a batch job (see fairway submit --help)");
  app.add_subcommand("run", "run a command on every node of a job, as a step of it (see fairway run --help)");
  app.add_subcommand("alloc",
                     "wait for an interactive allocation and run a command in it (see fairway alloc --help)");

  QueueOptions queue;
  auto* q = app.add_subcommand("queue", "list waiting and running jobs")->fallthrough();
  q->add_option("-u,--user", queue.user, "only this user's jobs");
  q->add_option("-p,--partition", queue.partition, "only this partition");
  q->add_option("-t,--states", queue.states, "comma-separated states: PD,R,... or names");
  q->add_option("-j,--jobs", queue.jobs, "comma-separated job ids");
  q->add_flag("--all", queue.all, "include finished jobs");
  q->add_flag("--json", queue.json, "JSON output");
  q->add_option("-o,--format", queue.format, "squeue's %-fields, e.g. \"%.10i %.9P %.8u %.2t %R\"");
  q->add_option("-S,--sort", queue.sort,
                "sort by fields: comma-separated letters, - for descending (-S -p,i)");
  q->add_flag("-l,--long", queue.long_format, "squeue -l's columns (state names, time limits)");
  q->add_flag("-r,--array", queue.expand_arrays,
              "one line per waiting task of an array (squeue -r), not one per array");
  q->add_flag("--start", queue.start, "waiting jobs with their estimated start times, soonest first");
  q->add_flag("--noheader", queue.noheader, "no header line");
  q->add_flag("--showq", queue.showq, "Maui's showq: active, idle and blocked jobs with processor use");
  q->add_flag("-s,--steps", queue.steps,
              "running jobs' running steps (squeue -s): STEPID NAME PARTITION USER TIME NODELIST");
  q->add_option("-A,--account", queue.accounts, "only jobs charged to these accounts (comma-separated)");
  q->add_option("-n,--name", queue.names, "only jobs with these names (comma-separated)");
  q->add_option("-w,--nodelist", queue.nodes, "only jobs holding one of these nodes (a host list)");
  int iterate_s = 0;
  q->add_option("-i,--iterate", iterate_s,
                "list again every SECONDS, each time under its date (squeue -i), until interrupted")
      ->check(CLI::Range(1, 86400));

  HistoryOptions history;
  auto* hist =
      app.add_subcommand("history", "finished jobs from the accounting store (sacct-like)")->fallthrough();
  hist->add_option("-u,--user", history.user, "only this user's jobs");
  hist->add_option("-A,--account", history.account, "only this account's jobs");
  hist->add_option("-r,--partition", history.partition, "only this partition");
  hist->add_option("-s,--state", history.states, "comma-separated end states: CD,F,TO,OOM,... or names");
  hist->add_option("-j,--jobs", history.jobs, "comma-separated job ids");
  hist->add_option("--name", history.names, "only jobs with these names (comma-separated)");
  hist->add_option("-S,--starttime", history.start,
                   "ended at or after: YYYY-MM-DD[THH:MM[:SS]] or now-7days");
  hist->add_option("-E,--endtime", history.end, "ended before: YYYY-MM-DD[THH:MM[:SS]] or now-1hour");
  hist->add_flag("-P,--parsable2", history.parsable, "fields separated by |, as sacct -P");
  hist->add_flag("-p,--parsable", history.trailing_bar,
                 "fields separated by | and ended by one, as sacct -p");
  hist->add_option("-o,--format", history.format, "sacct's fields: JobID,State,Elapsed,MaxRSS%10,...");
  hist->add_flag("--json", history.json, "JSON output");
  hist->add_flag("-n,--noheader", history.noheader, "no header line");
  hist->add_flag("--batch-steps", history.batch_steps,
                 "each batch script's own line (ID.batch) under its job, as sacct without -X");

  ReportOptions report;
  auto* report_cmd =
      app.add_subcommand("report", "core- and GPU-hours per account and user over a period (sreport)")
          ->fallthrough();
  report_cmd->add_option("-S,--starttime", report.start,
                         "period start: YYYY-MM-DD[THH:MM[:SS]] or now-30days (default: this month)");
  report_cmd->add_option("-E,--endtime", report.end, "period end (default: now)");
  report_cmd->add_option("-A,--account", report.account, "only this account");
  report_cmd->add_option("-u,--user", report.user, "only this user");
  report_cmd->add_flag("-P,--parsable2", report.parsable, "fields separated by |");
  report_cmd->add_flag("--json", report.json, "JSON output");

  PriorityOptions prio;
  auto* prio_cmd =
      app.add_subcommand("priority", "every term of waiting jobs' priorities, highest first (sprio)")
          ->fallthrough();
  prio_cmd->add_option("-u,--user", prio.user, "only this user's jobs");
  prio_cmd->add_option("-p,--partition", prio.partition, "only this partition");
  prio_cmd->add_option("-j,--jobs", prio.jobs, "comma-separated job ids");
  prio_cmd->add_flag("-n,--raw", prio.raw, "each term before its weight (minutes, factors, counts)");
  prio_cmd->add_flag("--json", prio.json, "JSON output");
  prio_cmd->add_flag("--sprio", prio.sprio,
                     "sprio's table: Fairway's terms in Slurm's columns (other terms under SITE)");
  prio_cmd->add_flag("-l,--long", prio.long_format, "with --sprio: every column, as sprio -l");
  prio_cmd->add_flag("--noheader", prio.noheader, "with --sprio: no header line");

  auto* show =
      app.add_subcommand("show", "show one job, node, partition or reservation in detail")->fallthrough();
  show->require_subcommand(1);
  std::string show_id;
  bool show_json = false;
  auto* show_job = show->add_subcommand("job", "every field of a job")->fallthrough();
  show_job->add_option("id", show_id, "job id");
  show_job->add_flag("--json", show_json, "JSON output");
  std::string show_name;
  auto* show_node = show->add_subcommand("node", "every field of a node")->fallthrough();
  show_node->add_option("name", show_name, "node name (default: every node)");
  show_node->add_flag("--json", show_json, "JSON output");

  std::vector<std::string> partition_names;
  auto* show_partition =
      show->add_subcommand("partition", "a partition's limits, nodes and use")->fallthrough();
  show_partition->add_option("names", partition_names, "partition names (default: all)");
  show_partition->add_flag("--json", show_json, "JSON output");
  std::vector<std::string> reservation_names;
  bool config_scontrol = false;
  auto* show_config = show->add_subcommand("config", "the coordinator's settings")->fallthrough();
  show_config->add_flag("--scontrol", config_scontrol, "scontrol show config's layout (Slurm's keys)");
  auto* show_reservation =
      show->add_subcommand("reservation", "a reservation's window, nodes, state and use")->fallthrough();
  show_reservation->add_option("names", reservation_names, "reservation names (default: all)");
  show_reservation->add_flag("--json", show_json, "JSON output");

  bool diag_json = false, diag_sdiag = false;
  auto* diag =
      app.add_subcommand("diag", "the coordinator's statistics: passes, jobs, nodes, messages (sdiag)")
          ->fallthrough();
  diag->add_flag("--json", diag_json, "JSON output (every metric, as the metrics endpoint has them)");
  diag->add_flag("--sdiag", diag_sdiag, "sdiag's layout (Slurm 22.05), for tools that parse it");

  SharesOptions shares;
  auto* shares_cmd =
      app.add_subcommand("shares", "fair-share shares, usage and factors by account and user (sshare)")
          ->fallthrough();
  shares_cmd->add_option("-u,--user", shares.user, "only this user");
  shares_cmd->add_option("-A,--account", shares.account, "only this account");
  shares_cmd->add_flag("--json", shares.json, "JSON output");
  shares_cmd->add_option("--list", shares.list, "sacctmgr's list instead: users, accounts or associations");
  shares_cmd->add_option("--format", shares.format,
                         "with --list: fields Account,User,Share,DefaultAccount (%WIDTH each)");
  shares_cmd->add_flag("-P,--parsable2", shares.parsable, "with --list: fields separated by |");
  shares_cmd->add_flag("--noheader", shares.noheader, "with --list or --sshare: no header lines");
  shares_cmd->add_flag("--sshare", shares.sshare, "sshare's table: the root, accounts and users as a tree");
  shares_cmd->add_flag("-a,--all-users", shares.all_users,
                       "with --sshare: every user's lines, not only yours");
  shares_cmd->add_flag("-p,--parsable", shares.trailing_bar,
                       "with --sshare: fields separated by |, one after the last");

  std::vector<std::string> update_words;
  auto* update = app.add_subcommand("update", "change a job: update job ID Key=Value... (scontrol update)")
                     ->fallthrough();
  update
      ->add_option("words", update_words,
                   "job ID[,ID...] then TimeLimit=, Partition=, QOS=, Account=, "
                   "JobName=, Comment=, Nice=, StartTime=")
      ->required();
  bool update_json = false;
  update->add_flag("--json", update_json, "each job's result as JSON");

  std::vector<std::string> node_names;
  bool nodes_json = false;
  bool nodes_summary = false;
  auto* nodes = app.add_subcommand("nodes", "list nodes and their use")->fallthrough();
  nodes->add_option("names", node_names, "only these nodes");
  nodes->add_flag("-s,--summarize", nodes_summary, "one line per partition (sinfo -s)");
  nodes->add_flag("--json", nodes_json, "JSON output");
  NodeLayoutOptions layout;
  nodes->add_option(
      "-o,--format", layout.format,
      "sinfo's %-fields (\"%#P %.5a %.10l %.6D %.6t %N\"): one line per partition and node state");
  nodes->add_flag("-N,--node-oriented", layout.node_oriented,
                  "with -o: one line per node and partition (sinfo -N)");
  nodes->add_flag("--noheader", layout.noheader, "with -o: no header line");
  nodes->add_flag("--list-reasons", layout.list_reasons,
                  "with -o: down and drained nodes by reason, who set it and when (sinfo -R)");
  nodes->add_option("-p,--partition", layout.partitions, "with -o: only these partitions")->delimiter(',');

  const std::pair<const char*, wire::JobAction> actions[] = {{"cancel", wire::JobAction::kCancel},
                                                             {"hold", wire::JobAction::kHold},
                                                             {"release", wire::JobAction::kRelease},
                                                             {"requeue", wire::JobAction::kRequeue}};
  std::vector<std::pair<CLI::App*, wire::JobAction>> control;
  ControlOptions controls;
  for (const auto& [name, action] : actions) {
    auto* sub = app.add_subcommand(name, std::string(name) + " jobs")->fallthrough();
    sub->add_flag("--json", controls.json, "each job's result as JSON");
    auto* ids = sub->add_option("ids", controls.ids, "job ids");
    if (action != wire::JobAction::kCancel) {
      ids->required();
    } else {
      // scancel's filters: cancel every job they match (among the ids, when given).
      sub->add_option("-u,--user", controls.filter.user, "jobs of this user");
      sub->add_option("-t,--state", controls.filter.states, "jobs in these states: PD,R,... or names");
      sub->add_option("-p,--partition", controls.filter.partition, "jobs in this partition");
      sub->add_option("-n,--name", controls.filter.name, "jobs with this name");
      sub->add_option("-A,--account", controls.filter.account, "jobs charged to this account");
      sub->add_option("-s,--signal", controls.signal,
                      "send this signal (USR1, 10, ...) instead of ending the jobs");
      sub->add_flag("-b,--batch", controls.batch,
                    "with --signal: to the batch script alone, not its children");
      sub->add_flag("-i,--interactive", controls.confirm,
                    "ask before each job (y to act on it), as scancel -i");
    }
    control.emplace_back(sub, action);
  }

  std::vector<std::string> admin_nodes;
  std::string drain_reason;
  auto* drain = app.add_subcommand("drain", "take no new jobs on nodes (running ones finish)")->fallthrough();
  drain->add_option("nodes", admin_nodes, "node names")->required();
  drain->add_option("--reason", drain_reason, "why (shown by fairway nodes)")->required();
  auto* resume = app.add_subcommand("resume", "let drained nodes take jobs again")->fallthrough();
  resume->add_option("nodes", admin_nodes, "node names")->required();

  std::reverse(args.begin(), args.end());  // CLI11 takes its vector in reverse order
  try {
    app.parse(args);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::ParseError& e) {
    return report_error(io, e.what(), kExitUsage);
  }

  CoordinatorTransport transport(endpoint_sources_from_environment(coordinator, config));
  // Text views get replies with control characters escaped (a job name's newline cannot
  // forge a line, nor its ESC drive the reader's terminal); JSON stays exact.
  const bool json = queue.json || history.json || report.json || prio.json || show_json || diag_json ||
                    shares.json || update_json || nodes_json || controls.json;
  const Transport call = json ? Transport(std::ref(transport)) : escaping_replies(std::ref(transport));
  if (q->parsed()) return run_queue_iterating(queue, iterate_s, call, io);
  if (hist->parsed()) {
    return run_history(history, Time::from_seconds(static_cast<std::int64_t>(std::time(nullptr))), call, io);
  }
  if (prio_cmd->parsed()) return run_priority(prio, call, io);
  if (report_cmd->parsed()) {
    return run_usage_report(report, Time::from_seconds(static_cast<std::int64_t>(std::time(nullptr))), call,
                            io);
  }
  if (show_job->parsed()) {
    const JobDetailLayout detail = show_json ? JobDetailLayout::kJson : JobDetailLayout::kFairway;
    return run_show_job(show_id, detail, call, io);
  }
  if (show_node->parsed()) return run_show_node(show_name, show_json, false, call, io);
  if (show_partition->parsed()) return run_show_partition(partition_names, show_json, false, call, io);
  if (show_config->parsed()) return run_show_config(config_scontrol, call, io);
  if (show_reservation->parsed()) return run_show_reservation(reservation_names, show_json, call, io);
  if (diag->parsed()) return run_diag(diag_json, diag_sdiag, call, io);
  if (update->parsed()) {
    return run_update(update_words, Time::from_seconds(static_cast<std::int64_t>(std::time(nullptr))),
                      update_json, call, io);
  }
  if (shares_cmd->parsed()) return run_shares(shares, call, io);
  if (nodes->parsed() && !layout.format.empty()) {
    layout.summarize = nodes_summary;  // -o with -s: one row per partition, as sinfo -s
    return run_node_layout(layout, call, io);
  }
  if (nodes->parsed()) return run_nodes(node_names, nodes_json, nodes_summary, false, call, io);
  if (drain->parsed()) {
    return run_node_control(wire::NodeAction::kDrain, admin_nodes, drain_reason, current_user(), call, io);
  }
  if (resume->parsed())
    return run_node_control(wire::NodeAction::kResume, admin_nodes, {}, current_user(), call, io);
  for (const auto& [sub, action] : control) {
    if (sub->parsed()) return run_control(action, controls, current_user(), call, io);
  }
  return report_error(io, "no subcommand given (try fairway --help)", kExitUsage);
}

}  // namespace

namespace fairway::cli {

int run_fairway(std::vector<std::string> args, const Output& io) {
  Globals globals;
  auto sub = scan_globals(args, globals);
  if (!sub) return report_error(io, sub.error().message, kExitUsage);
  if (*sub < args.size() && args[*sub] == "submit") {
    return submit_main({args.begin() + static_cast<std::ptrdiff_t>(*sub) + 1, args.end()}, globals, io);
  }
  if (*sub < args.size() && args[*sub] == "run") {
    return run_main({args.begin() + static_cast<std::ptrdiff_t>(*sub) + 1, args.end()}, globals, io);
  }
  if (*sub < args.size() && args[*sub] == "alloc") {
    return alloc_main({args.begin() + static_cast<std::ptrdiff_t>(*sub) + 1, args.end()}, globals, io);
  }
  constexpr std::string_view kSubcommands[] = {"queue",    "show",    "nodes",  "cancel", "hold",
                                               "release",  "requeue", "drain",  "resume", "history",
                                               "priority", "diag",    "shares", "update", "report"};
  if (*sub < args.size() && !args[*sub].starts_with("-") &&
      std::find(std::begin(kSubcommands), std::end(kSubcommands), args[*sub]) == std::end(kSubcommands)) {
    return report_error(io, "unknown subcommand \"" + args[*sub] + "\" (try fairway --help)", kExitUsage);
  }
  return cli11_main({args.begin() + static_cast<std::ptrdiff_t>(*sub), args.end()}, globals, io);
}

}  // namespace fairway::cli
