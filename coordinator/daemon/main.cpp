// fairway-coordinator: binds the agent and client endpoints and runs the one event-loop
// thread that owns the CoordinatorService (docs/architecture.md section 4.1).
#include <CLI/CLI.hpp>

#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "coordinator/daemon/agent_keyring.h"
#include "coordinator/daemon/client_channel.h"
#include "coordinator/daemon/config_reload.h"
#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/metrics_endpoint.h"
#include "coordinator/daemon/private_state_dir.h"
#include "coordinator/daemon/prometheus_text.h"
#include "shared/base/log.h"
#include "shared/config/config_file.h"
#include "shared/net/curve_keys.h"
#include "shared/net/message_socket.h"
#include "shared/net/poller.h"
#include "shared/net/zap_handler.h"
#include "shared/systemd/systemd_integration.h"

namespace {

using namespace fairway;
using Clock = std::chrono::steady_clock;

Time wall_now() {
  return Time::from_seconds(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

// Timeouts (heartbeats, leases) run on this: a wall-clock step cannot fake a silence.
Time mono_now() {
  return Time::from_seconds(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

// An ipc:// socket file needs its directory; create it rather than fail on a fresh host.
// Our umask (077) would make it 0700: the client socket's must let every user reach the
// socket (0755; the socket itself is 0666), the agents' socket's stays 0700.
void ensure_ipc_dir(const std::string& endpoint, bool open_to_users) {
  if (!endpoint.starts_with("ipc://")) return;
  const std::filesystem::path p(endpoint.substr(6));
  if (!p.has_parent_path()) return;
  std::error_code ec;
  const bool made = std::filesystem::create_directories(p.parent_path(), ec);
  if (made && open_to_users) std::filesystem::permissions(p.parent_path(), std::filesystem::perms(0755), ec);
}

// Every user submits through the client socket, and connecting to a Unix socket needs
// write permission on it; ZeroMQ creates it with the daemon's umask (often 0755).
void open_ipc_to_users(const std::string& endpoint) {
  if (!endpoint.starts_with("ipc://")) return;
  std::error_code ec;
  std::filesystem::permissions(endpoint.substr(6), std::filesystem::perms(0666), ec);
  if (ec)
    log_event(LogLevel::kWarning, "socket_permissions", {{"endpoint", endpoint}, {"error", ec.message()}});
}

// Frames handled per socket per turn: bounds a turn so that passes and replies keep
// flowing under a flood, while still grouping many requests into one transaction.
constexpr int kFramesPerTurn = 5000;
// Passes are cheap but not free: under a stream of submissions, at most one per this gap.
constexpr auto kMinPassGap = std::chrono::milliseconds(20);
// The job store could not even be read back after a failed commit: distinct from 1
// (start-up or poll errors) so that operators and tests can tell it apart. EX_TEMPFAIL: a
// restart may succeed.
constexpr int kExitStoreFailed = 75;

// Where the config came from, so that SIGHUP can read it again with the same overrides.
struct ConfigSource {
  std::string path;                                      // empty: built-in defaults (nothing to reload)
  std::string listen_agents, listen_clients, state_dir;  // command-line overrides
};

Result<Config> load(const ConfigSource& src) {
  Result<Config> config = src.path.empty() ? parse_config("", "defaults") : load_config_file(src.path);
  if (!config) return config;
  if (!src.listen_agents.empty()) config->coordinator.listen_agents = src.listen_agents;
  if (!src.listen_clients.empty()) config->coordinator.listen_clients = src.listen_clients;
  if (!src.state_dir.empty()) config->coordinator.state_dir = src.state_dir;
  return config;
}

int run(Config config, const ConfigSource& source) {
  // Before the store is opened: SQLite reads and writes it as given, whatever its mode.
  if (auto st = daemon::prepare_private_state_dir(config.coordinator.state_dir); !st) {
    log_event(LogLevel::kError, "startup_failed", {{"error", st.error().message}});
    return 1;
  }
  auto service = daemon::CoordinatorService::open(config, wall_now(), nullptr, {}, mono_now());
  if (!service) {
    log_event(LogLevel::kError, "startup_failed", {{"error", service.error().message}});
    return 1;
  }
  net::NetContext ctx;
  ensure_ipc_dir(config.coordinator.listen_clients, true);
  ensure_ipc_dir(config.coordinator.listen_agents, false);
  for (const std::string& ep : {config.coordinator.listen_agents, config.coordinator.listen_clients}) {
    if (auto st = daemon::claim_ipc_endpoint(ep); !st) {
      log_event(LogLevel::kError, "startup_failed", {{"error", st.error().message}});
      return 1;
    }
  }
  // Agents prove themselves with CURVE keys (docs/security.md): the ZAP handler admits a
  // listed key under its node's name, before any frame of that connection is read.
  const SecurityConfig& sec = config.security;
  daemon::AgentKeyring keyring(sec.agent_keys_dir);
  std::optional<net::ZapHandler> zap;
  std::optional<net::CurveServer> curve;
  if (sec.agent_auth == AgentAuth::kCurve) {
    auto keys = net::read_curve_secret_key(sec.coordinator_secret_key);
    if (!keys) {
      log_event(
          LogLevel::kError, "startup_failed",
          {{"error", keys.error().message + " (agents authenticate with CURVE keys: see "
                                            "docs/security.md, or set [security] agent_auth = \"none\")"}});
      return 1;
    }
    auto handler =
        net::ZapHandler::bind(ctx, [&keyring](const net::ZapRequest& r) -> std::optional<std::string> {
          if (r.domain != "agents") return std::string();  // sockets without authentication
          if (r.mechanism != "CURVE") return std::nullopt;
          auto node = keyring.node_for(r.client_key);
          if (!node) {
            log_event(
                LogLevel::kWarning, "agent_refused",
                {{"address", r.address}, {"key", r.client_key}, {"error", "key not in agent_keys_dir"}});
          }
          return node;
        });
    if (!handler) {
      log_event(LogLevel::kError, "startup_failed", {{"error", handler.error().message}});
      return 1;
    }
    zap.emplace(std::move(*handler));
    curve = net::CurveServer{keys->secret_z85, "agents"};
  } else {
    log_event(LogLevel::kWarning, "agents_unauthenticated",
              {{"error", "[security] agent_auth = \"none\": anyone who reaches " +
                             config.coordinator.listen_agents + " can register as a node and receive jobs"}});
  }
  auto agents =
      net::MessageSocket::bind_router(ctx, config.coordinator.listen_agents, curve ? &*curve : nullptr);
  if (!agents) {
    log_event(LogLevel::kError, "startup_failed", {{"error", agents.error().message}});
    return 1;
  }
  auto clients = daemon::ClientChannel::bind(ctx, config.coordinator.listen_clients);
  if (!clients) {
    log_event(LogLevel::kError, "startup_failed", {{"error", clients.error().message}});
    return 1;
  }
  open_ipc_to_users(config.coordinator.listen_clients);

  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGHUP);
  sigprocmask(SIG_BLOCK, &mask, nullptr);
  const int sig_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);

  net::Poller poller;
  const std::size_t agent_i = poller.add(*agents);
  const std::size_t client_i = clients->add_to(poller);
  const std::size_t signal_i = poller.add_fd(sig_fd);
  const std::size_t zap_i = zap ? poller.add_handle(zap->handle()) : SIZE_MAX;

  std::unique_ptr<daemon::MetricsEndpoint> metrics;
  if (!config.coordinator.metrics_listen.empty()) {
    auto started = daemon::MetricsEndpoint::start(config.coordinator.metrics_listen);
    if (!started) {
      log_event(LogLevel::kError, "startup_failed", {{"error", started.error().message}});
      return 1;
    }
    metrics = std::move(*started);
    metrics->publish(daemon::prometheus_text((*service)->metrics(wall_now())));
    log_event(LogLevel::kInfo, "metrics_listening",
              {{"address", config.coordinator.metrics_listen}, {"port", std::to_string(metrics->port())}});
  }

  log_event(LogLevel::kInfo, "coordinator_started",
            {{"agents", config.coordinator.listen_agents},
             {"clients", config.coordinator.listen_clients},
             {"state_dir", config.coordinator.state_dir}});
  notify_ready();
  auto last_pass = Clock::now() - kMinPassGap;
  auto last_timer = Clock::now();
  std::string last_status;
  for (;;) {
    auto wait = std::chrono::milliseconds(1000);
    if (clients->has_pending()) {
      wait = std::chrono::milliseconds(0);
    } else if ((*service)->pass_wanted()) {
      wait = std::max(std::chrono::milliseconds(0), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                        last_pass + kMinPassGap - Clock::now()));
    }
    auto ready = poller.wait(wait);
    if (!ready) {
      log_event(LogLevel::kError, "poll_failed", {{"error", ready.error().message}});
      return 1;
    }
    bool reload = false;
    if ((*ready)[signal_i]) {
      signalfd_siginfo info{};
      bool stop = false;
      while (read(sig_fd, &info, sizeof info) == sizeof info) {
        if (info.ssi_signo == SIGHUP) {
          reload = true;
        } else {
          stop = true;
        }
      }
      if (stop) {
        log_event(LogLevel::kInfo, "coordinator_stopping", {{"signal", std::to_string(info.ssi_signo)}});
        break;
      }
    }
    if (reload) {
      // Between turns: nothing is half done. The service is rebuilt from the store under
      // the new config, exactly as after a restart, so every job comes back and agents
      // re-register on their next heartbeat; a config that does not load changes nothing.
      notify_reloading();
      auto fresh = load(source);
      if (!fresh) {
        log_event(LogLevel::kError, "reload_failed",
                  {{"error", fresh.error().message}, {"kept", "the running config"}});
      } else {
        daemon::ReloadPlan plan = daemon::plan_reload(config, std::move(*fresh));
        if (!plan.needs_restart.empty()) {
          std::string keys;
          for (const auto& k : plan.needs_restart) keys += (keys.empty() ? "" : ",") + k;
          log_event(LogLevel::kWarning, "reload_needs_restart",
                    {{"keys", keys}, {"kept", "their running values"}});
        }
        service->reset();
        auto reopened = daemon::CoordinatorService::open(plan.apply, wall_now(), nullptr, {}, mono_now());
        if (reopened) {
          config = std::move(plan.apply);
          service = std::move(reopened);
          log_event(LogLevel::kInfo, "config_reloaded", {{"config", source.path}});
        } else {
          log_event(LogLevel::kError, "reload_failed",
                    {{"error", reopened.error().message}, {"kept", "the running config"}});
          service = daemon::CoordinatorService::open(config, wall_now(), nullptr, {}, mono_now());
          if (!service) {
            log_event(LogLevel::kError, "coordinator_fail_stop", {{"error", service.error().message}});
            notify_stopping();
            close(sig_fd);
            return kExitStoreFailed;
          }
        }
      }
      notify_ready();
    }
    const Time now = wall_now();
    (*service)->set_monotonic(mono_now());
    // Handshakes wait on the ZAP handler: answer them first.
    if (zap && (*ready)[zap_i]) zap->serve();
    // Readiness is edge-like for ZeroMQ sockets: drain (boundedly) whatever is there.
    for (int i = 0; i < kFramesPerTurn; ++i) {
      auto in = agents->receive();
      if (!in) break;
      (*service)->on_agent_frame(in->peer, in->frame, now, in->authenticated_id);
    }
    clients->serve(Clock::now());
    for (int i = 0; i < kFramesPerTurn; ++i) {
      auto in = clients->receive();
      if (!in) break;
      (*service)->on_client_frame(in->peer, in->frame, now, in->credentials);
    }
    (void)agent_i;
    (void)client_i;
    if (Clock::now() - last_timer >= std::chrono::seconds(1)) {
      last_timer = Clock::now();
      (*service)->on_timer(now);
      notify_watchdog();
      // STATUS= only when it changes, as the agent does: systemd keeps the last one.
      if (std::string status = (*service)->status_line(); status != last_status) {
        notify_status(status);
        last_status = std::move(status);
      }
      if (metrics) metrics->publish(daemon::prometheus_text((*service)->metrics(now)));
    }
    const bool allow_pass = Clock::now() - last_pass >= kMinPassGap;
    if (allow_pass && (*service)->pass_wanted()) last_pass = Clock::now();
    for (const auto& out : (*service)->end_turn(now, allow_pass)) {
      // To a node: only on the connection its key registered on (AgentRoutes), never to a
      // routing id that merely carries its name.
      Status st = ok_status();
      if (out.channel == daemon::Channel::kClients) {
        st = clients->send(out.peer, out.frame);
      } else if (out.route.empty()) {
        st = make_error(ErrorCode::kUnavailable, "no connection of node " + out.peer + "'s key");
      } else {
        st = agents->send(out.route, out.frame);
      }
      if (!st) {
        log_event(LogLevel::kWarning, "send_failed", {{"peer", out.peer}, {"error", st.error().message}});
      }
    }
    // Fail-stop of that service: memory may hold what the store does not. A new one is
    // rebuilt from the store, read-only: queries are served, new work is refused with the
    // reason, and it probes the store until it takes writes again (a full disk); then it
    // is rebuilt once more, writable.
    std::optional<std::string> reopen_because;  // why read-only; empty: writable again
    if (const Status& failed = (*service)->failed(); !failed) {
      reopen_because = failed.error().message;
      log_event(LogLevel::kError, "coordinator_read_only", {{"error", *reopen_because}});
    } else if ((*service)->writable_again()) {
      log_event(LogLevel::kInfo, "coordinator_writable_again", {});
      reopen_because = std::string();
    }
    if (reopen_because) {
      service->reset();  // releases the state dir lock and the store
      service = daemon::CoordinatorService::open(config, wall_now(), nullptr, *reopen_because, mono_now());
      if (!service) {
        log_event(LogLevel::kError, "coordinator_fail_stop",
                  {{"error", service.error().message}, {"exit_status", std::to_string(kExitStoreFailed)}});
        notify_stopping();
        close(sig_fd);
        return kExitStoreFailed;
      }
    }
  }
  notify_stopping();
  close(sig_fd);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fairway-coordinator: the Fairway cluster coordinator"};
  std::string config_path, listen_agents, listen_clients, state_dir;
  bool debug = false;
  app.add_option("--config", config_path, "TOML config file (default: built-in defaults)");
  app.add_option("--listen-agents", listen_agents, "endpoint agents connect to (tcp://HOST:PORT)");
  app.add_option("--listen-clients", listen_clients, "endpoint the CLI connects to (ipc://PATH or tcp://)");
  app.add_option("--state-dir", state_dir, "directory of the job store");
  app.add_flag("--debug", debug, "log debug events too");
  CLI11_PARSE(app, argc, argv);

  // Every file the coordinator makes is its user's alone (the store, its WAL, the lock);
  // the client socket is opened to users explicitly (open_ipc_to_users).
  ::umask(077);
  use_journal_if_connected();
  if (debug) set_log_level(LogLevel::kDebug);
  const ConfigSource source{config_path, listen_agents, listen_clients, state_dir};
  Result<Config> config = load(source);
  if (!config) {
    log_event(LogLevel::kError, "bad_config", {{"error", config.error().message}});
    return 2;
  }
  return run(std::move(*config), source);
}
