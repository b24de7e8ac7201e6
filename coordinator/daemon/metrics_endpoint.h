// The coordinator's Prometheus endpoint ([coordinator] metrics_listen): a thread of its
// own that owns the listening socket and serves the latest published text on GET /metrics.
// publish() may be called from any thread; everything else belongs to the endpoint's thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "shared/base/result.h"

namespace fairway::daemon {

class MetricsEndpoint {
 public:
  // `listen`: HOST:PORT (port 0: any free port, see port()). Error names the address.
  static Result<std::unique_ptr<MetricsEndpoint>> start(const std::string& listen);
  ~MetricsEndpoint();
  MetricsEndpoint(const MetricsEndpoint&) = delete;
  MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

  // What the next scrapes get. The coordinator's loop publishes a fresh snapshot each
  // second, so that a slow or hostile client can never hold up scheduling.
  void publish(std::string text);
  std::uint16_t port() const { return port_; }

 private:
  MetricsEndpoint(int fd, std::uint16_t port);
  void serve();
  void answer(int conn);

  int fd_;
  std::uint16_t port_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::shared_ptr<const std::string> text_;  // guarded by mu_
  std::thread thread_;
};

}  // namespace fairway::daemon
