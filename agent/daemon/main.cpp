// fairway-agent: discovers its node, connects to the coordinator and runs the one
// event-loop thread that owns the AgentService (docs/architecture.md section 4.2).
#include <CLI/CLI.hpp>

#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>

#include "agent/daemon/agent_service.h"
#include "shared/base/log.h"
#include "shared/base/private_files.h"
#include "shared/base/try.h"
#include "shared/config/config_file.h"
#include "shared/net/connection_id.h"
#include "shared/net/curve_keys.h"
#include "shared/net/message_socket.h"
#include "shared/net/poller.h"
#include "shared/systemd/systemd_integration.h"

namespace {

using namespace fairway;

// Steady time for leases: immune to wall-clock steps.
Time mono_now() {
  return Time::from_seconds(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

Time wall_now() {
  return Time::from_seconds(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

struct Flags {
  std::string coordinator, name, topology, spool, config_path, key, coordinator_key;
};

// The agent talks only to the coordinator holding the pinned key, and proves its node
// with its own (docs/security.md). nullopt with agent_auth = "none".
Result<std::optional<net::CurveClient>> curve_client(const Flags& f, const SecurityConfig& sec) {
  if (sec.agent_auth == AgentAuth::kNone) return std::optional<net::CurveClient>();
  FAIRWAY_TRY_ASSIGN(own, net::read_curve_secret_key(f.key.empty() ? sec.agent_secret_key : f.key));
  FAIRWAY_TRY_ASSIGN(server, net::read_curve_public_key(f.coordinator_key.empty() ? sec.coordinator_public_key
                                                                                  : f.coordinator_key));
  return std::optional<net::CurveClient>(net::CurveClient{server, own.public_z85, own.secret_z85});
}

int run(const Flags& f, const Config& config) {
  auto node =
      f.topology.empty() ? agent::discover_host(f.name) : agent::discover_from_xml(f.topology, f.name);
  if (!node) {
    log_event(LogLevel::kError, "discovery_failed", {{"error", node.error().message}});
    return 1;
  }
  // What jobs may be given is what the node has less what the OS keeps.
  if (const std::int64_t reserved = config.agent.reserved_memory_mb;
      reserved > 0 && node->topology.memory_mb > 0) {
    if (reserved >= node->topology.memory_mb) {
      log_event(LogLevel::kError, "memory_reserve_too_large",
                {{"node", node->topology.name},
                 {"reserved_memory_mb", std::to_string(reserved)},
                 {"memory_mb", std::to_string(node->topology.memory_mb)}});
      return 1;
    }
    node->topology.memory_mb -= reserved;
  }
  agent::AgentOptions opts;
  opts.spool_dir = f.spool.empty() ? config.agent.spool_dir : f.spool;
  opts.heartbeat_interval = config.agent.heartbeat_interval;
  opts.kill_grace = config.agent.kill_grace;
  opts.allow_root_jobs = config.agent.allow_root_jobs;
  opts.coordinator_lease = config.agent.coordinator_lease;
  opts.apply_binding = f.topology.empty();
  opts.cgroups.mode = config.agent.cgroups;
  opts.cgroups.subtree =
      config.agent.cgroup_subtree.empty() ? "fairway/" + node->topology.name : config.agent.cgroup_subtree;
  opts.require_enforcement = config.agent.require_enforcement;
  opts.max_pids_per_job = config.agent.max_pids_per_job;
  // fairway-step is installed beside us (and built beside us).
  std::error_code exe_error;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", exe_error);
  opts.step_relay_path = (exe_error ? std::filesystem::path("/usr/bin") : exe.parent_path()) / "fairway-step";
  // 0711 down the path too: a job's user must traverse every level to its script.
  if (auto made = make_dirs(opts.spool_dir, 0711); !made) {
    log_event(LogLevel::kError, "spool_failed", {{"path", opts.spool_dir}, {"error", made.error().message}});
    return 1;
  }
  // 0711: a job's user reaches its own script (0700, theirs) by name, and nobody lists the
  // spool; checkpoints, exit records and the lease file inside are root's, 0600.
  std::error_code ec;
  std::filesystem::permissions(opts.spool_dir, std::filesystem::perms(0711), ec);
  if (ec) {
    log_event(LogLevel::kError, "spool_failed",
              {{"path", opts.spool_dir}, {"error", "chmod 0711: " + ec.message()}});
    return 1;
  }

  // Signals arrive as readable events on one fd, so the loop has one wait and no handlers.
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGCHLD);
  sigprocmask(SIG_BLOCK, &mask, nullptr);
  const int sig_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);

  const std::string name = node->topology.name;
  auto service = agent::AgentService::start(std::move(*node), opts, wall_now());
  if (!service) {
    log_event(LogLevel::kError, "startup_failed", {{"error", service.error().message}});
    return 1;
  }
  auto curve = curve_client(f, config.security);
  if (!curve) {
    log_event(
        LogLevel::kError, "startup_failed",
        {{"error", curve.error().message + " (the agent authenticates with CURVE keys: see "
                                           "docs/security.md, or set [security] agent_auth = \"none\")"}});
    return 1;
  }
  if (!*curve) {
    log_event(LogLevel::kWarning, "coordinator_unauthenticated",
              {{"error", "[security] agent_auth = \"none\": any process at " + f.coordinator +
                             " can send this node jobs"}});
  }
  // With CURVE the coordinator knows us by our key and sends only to the connection that
  // key registered on; the routing id is random so that no other peer can take it over
  // (docs/security.md). Without CURVE the name is all the coordinator has.
  std::string routing_id = name;
  if (*curve) {
    auto id = net::unguessable_routing_id(name);
    if (!id) {
      log_event(LogLevel::kError, "startup_failed", {{"error", id.error().message}});
      return 1;
    }
    routing_id = std::move(*id);
  }
  net::NetContext ctx;
  auto link = net::MessageSocket::connect_dealer(ctx, f.coordinator, routing_id, *curve ? &**curve : nullptr);
  if (!link) {
    log_event(LogLevel::kError, "startup_failed", {{"error", link.error().message}});
    return 1;
  }
  net::Poller poller;
  const std::size_t link_i = poller.add(*link);
  const std::size_t signal_i = poller.add_fd(sig_fd);
  const std::size_t launches_i = poller.add_fd((*service)->launch_fd());
  log_event(LogLevel::kInfo, "agent_started",
            {{"node", name},
             {"coordinator", f.coordinator},
             {"route", routing_id},
             {"spool", opts.spool_dir},
             {"binding", opts.apply_binding ? "applied" : "exported only"},
             {"enforcement", (*service)->enforcement()}});
  notify_ready();

  auto flush = [&] {
    for (const auto& frame : (*service)->take_outgoing()) {
      if (auto st = link->send(frame); !st) {
        log_event(LogLevel::kWarning, "send_failed", {{"node", name}, {"error", st.error().message}});
      }
    }
  };
  flush();
  auto last_timer = std::chrono::steady_clock::now();
  std::size_t last_status_jobs = SIZE_MAX;
  for (;;) {
    auto ready = poller.wait(std::chrono::milliseconds(250));
    if (!ready) {
      log_event(LogLevel::kError, "poll_failed", {{"error", ready.error().message}});
      return 1;
    }
    const Time now = wall_now();
    (*service)->set_monotonic(mono_now());
    if ((*ready)[signal_i]) {
      bool stop = false;
      signalfd_siginfo info{};
      while (read(sig_fd, &info, sizeof info) == sizeof info) {
        if (info.ssi_signo == SIGTERM || info.ssi_signo == SIGINT) stop = true;
      }
      // SIGCHLDs coalesce: reap whatever ended, whichever signal woke us.
      (*service)->on_children(now);
      if (stop) {
        // Jobs keep running: the next agent re-adopts them from their checkpoints.
        log_event(LogLevel::kInfo, "agent_stopping",
                  {{"node", name}, {"running", std::to_string((*service)->running())}});
        flush();
        break;
      }
    }
    if ((*ready)[link_i]) {
      while (auto in = link->receive()) (*service)->on_frame(in->frame, now);
    }
    if ((*ready)[launches_i]) (*service)->on_launches_done(now);
    if (std::chrono::steady_clock::now() - last_timer >= std::chrono::milliseconds(250)) {
      last_timer = std::chrono::steady_clock::now();
      (*service)->on_children(now);
      (*service)->on_timer(now);
      notify_watchdog();
      const std::size_t jobs = (*service)->running();
      if (jobs != last_status_jobs) {
        last_status_jobs = jobs;
        notify_status(std::to_string(jobs) + " jobs running; enforcement: " + (*service)->enforcement());
      }
    }
    flush();
  }
  notify_stopping();
  close(sig_fd);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fairway-agent: the Fairway node agent"};
  Flags f;
  bool debug = false;
  app.add_option("--coordinator", f.coordinator, "coordinator endpoint (tcp://HOST:PORT)")->required();
  app.add_option("--name", f.name, "node name (default: the host name)");
  app.add_option("--topology", f.topology,
                 "model this hwloc XML instead of the host (binding is exported, not applied)");
  app.add_option("--spool", f.spool, "spool directory for job scripts and checkpoints");
  app.add_option("--config", f.config_path, "TOML config file ([agent] table)");
  app.add_option("--key", f.key, "this node's CURVE secret key (default: [security] agent_secret_key)");
  app.add_option("--coordinator-key", f.coordinator_key,
                 "the coordinator's CURVE public key (default: [security] coordinator_public_key)");
  app.add_flag("--debug", debug, "log debug events too");
  CLI11_PARSE(app, argc, argv);
  // Every file the agent makes (checkpoints with the job's environment, exit records, the
  // lease) is root's alone; a job's own files get the job's umask (process_launcher.cpp).
  ::umask(077);
  use_journal_if_connected();
  if (debug) set_log_level(LogLevel::kDebug);
  Result<Config> config =
      f.config_path.empty() ? parse_config("", "defaults") : load_config_file(f.config_path);
  if (!config) {
    log_event(LogLevel::kError, "bad_config", {{"error", config.error().message}});
    return 2;
  }
  return run(f, *config);
}
