// Maui's MAXPS (seed 002): a job starts only while the processor-seconds still owed by its
// user's (or account's) running jobs, plus its own time limit x cores, stay within a soft
// limit; between soft and hard only when nothing in the queue is within soft. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "coordinator/core/job_record.h"
#include "coordinator/core/pending_reason.h"
#include "shared/config/config.h"

namespace fairway {

class MaxPsLimit {
 public:
  MaxPsLimit(const LimitsConfig& limits, const std::vector<AccountConfig>& accounts);

  bool enabled() const {
    return default_soft_.has_value() || default_hard_.has_value() || !per_account_.empty();
  }
  // The hard limit that applies to a job of this account, if any.
  std::optional<double> hard_limit(const std::string& account) const;
  // Sums what running jobs still owe (begin_pass does it too).
  void count_running(std::span<JobRecord* const> running, Time now);
  // The hard limit alone, against what running jobs owe: a job it forbids cannot start
  // this pass whatever else happens, so it need not hold an idle-queue slot.
  std::optional<PendingReason> check_hard(const JobRecord& j) const;
  // Sums what running jobs still owe, and decides whether this pass may go up to the hard
  // limit (no eligible job fits under its soft limit).
  void begin_pass(std::span<JobRecord* const> running, std::span<JobRecord* const> eligible, Time now);
  // The limit that stops `j` from starting now, if any.
  std::optional<PendingReason> check(const JobRecord& j) const;
  // A job started this pass counts against its scope from now on.
  void on_start(const JobRecord& j);
  // What running jobs owe shrinks as they run, so a held job's limit opens at a time when
  // nothing happens: the earliest such time for the jobs this pass held for MAXPS, given
  // no start or end before it (those bring a pass anyway). Call after the pass's starts.
  // `waiting` may hold pending and blocked jobs; only those MAXPS holds count.
  std::optional<Time> earliest_release(std::span<JobRecord* const> waiting, Time now) const;

 private:
  struct Limits {
    std::optional<double> soft;
    std::optional<double> hard;
  };
  const std::string& key(const JobRecord& j) const;
  Limits limits_for(const JobRecord& j) const;
  double owed(const JobRecord& j) const;  // running total for j's scope + j's own PS
  std::optional<Time> release_time(const JobRecord& j, Time now) const;

  // A running job's remaining seconds as begin_pass counts them (at least 1), and cores.
  struct Owing {
    std::int64_t left_s;
    double cores;
  };

  LimitScope scope_;
  std::optional<double> default_soft_;
  std::optional<double> default_hard_;
  std::unordered_map<std::string, Limits> per_account_;
  std::unordered_map<std::string, double> running_ps_;
  std::unordered_map<std::string, std::vector<Owing>> running_jobs_;
  bool relaxed_ = false;
};

}  // namespace fairway
