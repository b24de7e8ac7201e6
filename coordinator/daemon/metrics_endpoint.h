// The coordinator's Prometheus endpoint ([coordinator] metrics_listen): a thread of its
// own that owns the listening socket and serves the latest published text on GET /metrics.
// publish() may be called from any thread; everything else belongs to the endpoint's thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "shared/base/result.h"

namespace fairway::daemon {

class MetricsEndpoint {
 public:
  // Scrapers served at once; a connection beyond waits in the listen backlog.
  static constexpr std::size_t kMaxClients = 32;
  // A connection's whole exchange (request in, answer out) must end within this: a slow or
  // silent client is hung up on, and the others are served meanwhile.
  static constexpr std::chrono::milliseconds kDeadline{5000};

  // `listen`: HOST:PORT (port 0: any free port, see port()). Error names the address.
  static Result<std::unique_ptr<MetricsEndpoint>> start(const std::string& listen,
                                                        std::chrono::milliseconds deadline = kDeadline);
  ~MetricsEndpoint();
  MetricsEndpoint(const MetricsEndpoint&) = delete;
  MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

  // What the next scrapes get. The coordinator's loop publishes a fresh snapshot each
  // second, so that a slow or hostile client can never hold up scheduling.
  void publish(std::string text);
  std::uint16_t port() const { return port_; }

 private:
  struct Client;
  MetricsEndpoint(int fd, std::uint16_t port, std::chrono::milliseconds deadline);
  void serve();
  // The whole answer to a request (complete or cut short).
  std::string answer(const std::string& request, bool complete);
  // Reads or writes what `c` is ready for; false when it is done with.
  bool step(Client& c);

  int fd_;
  std::uint16_t port_;
  std::chrono::milliseconds deadline_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::shared_ptr<const std::string> text_;  // guarded by mu_
  std::thread thread_;
};

}  // namespace fairway::daemon
