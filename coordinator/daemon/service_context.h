// What the coordinator's client API works on: the service's parts, by reference, and what
// a request may ask of the rest of the service (ServiceActions). Built per request.
// Not thread-safe: the daemon's one event-loop thread owns everything it names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "coordinator/core/scheduler.h"
#include "coordinator/daemon/client_tokens.h"
#include "coordinator/daemon/job_store.h"
#include "coordinator/daemon/node_registry.h"
#include "coordinator/daemon/service_counters.h"
#include "coordinator/daemon/submit_rate_limiter.h"
#include "shared/config/config.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

enum class Channel { kAgents, kClients };

struct JobTracking;
class FinishedJobs;

// The rest of the service, as a client request sees it: the turn's frames and writes, and
// the job changes whose consequences (rows, effects, a scheduling pass) the service owns.
class ServiceActions {
 public:
  virtual ~ServiceActions() = default;
  // A frame to a client or an agent, released when the turn commits.
  virtual void reply(Channel ch, const std::string& peer, const wire::Message& m) = 0;
  // Writes go into the turn's transaction, opened on first use; a failed one fails the turn.
  virtual bool ensure_txn() = 0;
  virtual bool write(const Status& st, std::string_view what, JobId id) = 0;
  // Fails the turn without a write: memory holds what the store cannot be made to (a row
  // that could not be read back). The caller logs why.
  virtual void fail_turn() = 0;
  // The job's row as the core now has it; the end of a job that never ran.
  virtual void persist(JobId id) = 0;
  virtual void mark_terminal(JobId id, Time now) = 0;
  // Applies `event` to the job in the core and carries out its effects.
  virtual bool on_job_event(JobId id, const JobEvent& event, Time now) = 0;
  // The job's request as the store keeps it; an error names the job.
  virtual Result<wire::SubmitRequest> stored_request(JobId id) const = 0;
  virtual void persist_step(const StoredStep& step) = 0;
  // The queue changed: the turn ends with a scheduling pass.
  virtual void changed() = 0;
};

struct ServiceContext {
  const Config& config;
  Scheduler& scheduler;
  JobStore& store;
  NodeRegistry& registry;
  // What the daemon knows about each waiting or running job beyond the core's record
  // (coordinator_service.h), and what it keeps of the newest ended ones.
  std::unordered_map<std::uint64_t, JobTracking>& tracking;
  const FinishedJobs& finished;
  ClientTokens& tokens;
  SubmitRateLimiter& rate_limiter;
  ServiceCounters& counters;
  ServiceActions& service;
};

// A refusal as the client reads it.
inline wire::Message error_message(const Error& e) {
  return wire::ErrorReply{e.code, e.message};
}

}  // namespace fairway::daemon
