// Reports for users and admins (issue 12): `fairway diag` and the Prometheus endpoint,
// `fairway show partition`, `fairway shares`, reservations, and the job changes that come
// with them (update job, time limits, signals). Plain data; included by messages.h, which
// lists them in the Message variant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/time.h"
#include "shared/wire/step_messages.h"  // EnvVar: a metric's labels

namespace fairway::wire {

// Client -> coordinator: a snapshot of every metric the coordinator keeps.
struct MetricsQuery {
  bool operator==(const MetricsQuery&) const = default;
};

// One sample of a family; its name is the family's plus `suffix` ("_bucket", "_sum" and
// "_count" for a histogram, "" otherwise), as Prometheus' text format writes it.
struct MetricSample {
  std::string suffix;
  std::vector<EnvVar> labels;
  double value = 0;
  bool operator==(const MetricSample&) const = default;
};

struct MetricFamily {
  std::string name;  // fairway_jobs, fairway_pass_duration_seconds, ...
  std::string type;  // "counter", "gauge" or "histogram"
  std::string help;
  std::vector<MetricSample> samples;
  bool operator==(const MetricFamily&) const = default;
};

struct MetricsReply {
  Time now;
  std::vector<MetricFamily> families;
  bool operator==(const MetricsReply&) const = default;
};

// Client -> coordinator: `fairway show partition [NAME...]`.
struct PartitionQuery {
  std::vector<std::string> partitions;  // empty: all
  bool operator==(const PartitionQuery&) const = default;
};

struct PartitionView {
  std::string name;
  bool is_default = false;
  std::vector<std::string> nodes;
  std::int32_t nodes_up = 0;  // registered and heard from, drained ones included
  std::int64_t cores = 0;
  std::int64_t cores_used = 0;
  std::int64_t gpus = 0;
  std::int64_t gpus_used = 0;
  Duration max_time;
  Duration default_time;
  double priority = 0;
  std::int32_t priority_tier = 0;
  std::string preempt;  // what happens to its jobs as victims: "off", "requeue", "cancel"
  std::string default_qos;
  std::string allocation_unit;    // "core", "socket" or "node"
  std::int32_t jobs_pending = 0;  // waiting in any way: pending, held, blocked
  std::int32_t jobs_running = 0;
  // Behaviours the partition switches on: "default_for_interactive", "killable",
  // "clamp_time_limit", "whole_nodes_above_node_size", "socket_exclusive_gpus".
  std::vector<std::string> flags;
  // Who may use it (partitions' access keys); empty: no such rule. Absent from a
  // coordinator that predates them.
  std::vector<std::string> allow_accounts, deny_accounts, allow_groups, allow_qos, deny_qos;
  bool operator==(const PartitionView&) const = default;
};

struct PartitionQueryReply {
  std::vector<PartitionView> partitions;
  bool operator==(const PartitionQueryReply&) const = default;
};

// Client -> coordinator: `fairway shares` (sshare).
struct SharesQuery {
  std::string user;     // empty: any
  std::string account;  // empty: any
  // sshare without -a: the caller's own user lines (and their accounts'), the caller as
  // the coordinator knows them. Sent only when set.
  bool callers_own = false;
  bool operator==(const SharesQuery&) const = default;
};

// One account (user empty) or one user within an account.
struct ShareView {
  std::string account;
  std::string user;
  double raw_shares = 0;       // as configured
  double norm_shares = 0;      // of the whole machine, in [0, 1]
  double raw_usage = 0;        // billing units, decayed or windowed as the site configures
  double effective_usage = 0;  // of all usage, in [0, 1]
  double fairshare = 0;        // the factor priority uses, in [0, 1]; users only
  bool operator==(const ShareView&) const = default;
};

struct SharesReply {
  Time now;
  std::string algorithm;        // "classic" or "fair_tree"
  std::vector<ShareView> rows;  // each account, then its users
  bool operator==(const SharesReply&) const = default;
};

// Client -> coordinator: `fairway update job` (scontrol update job). Unset or empty fields
// stay as they are; the reply is a JobControlReply, one result per job.
struct JobUpdate {
  std::vector<JobId> jobs;
  std::optional<Duration> time_limit;
  std::string partition;
  std::string qos;
  std::string account;
  std::string name;
  std::optional<std::string> comment;
  std::optional<std::int32_t> nice;
  std::optional<Time> begin;  // StartTime=: not before then
  bool operator==(const JobUpdate&) const = default;
};

// Coordinator -> agent: a running job's time limit changed (fairway update job TimeLimit=);
// counted from the job's start, as at launch.
struct SetTimeLimit {
  JobId job;
  Duration time_limit;
  bool operator==(const SetTimeLimit&) const = default;
};

// Coordinator -> agent: fairway cancel --signal. Only the signal, to the job's process
// group or, with `batch_only`, to its batch script alone; the job runs on. A message of
// its own so that an agent that predates it ignores it rather than ending the job.
struct SendSignal {
  JobId job;
  std::int32_t signal = 10;
  bool batch_only = false;
  bool operator==(const SendSignal&) const = default;
};

// Client -> coordinator: `fairway show reservation [NAME...]` (scontrol show reservation);
// every reservation when `names` is empty.
struct ReservationQuery {
  std::vector<std::string> names;
  bool operator==(const ReservationQuery&) const = default;
};

struct ReservationView {
  std::string name;
  std::string kind;   // "maintenance" or "project"
  std::string state;  // "waiting", "active", "ended" or "cancelled"
  Time start;
  Time end;  // as configured; a cancelled one ended at cancelled_at
  std::optional<Time> cancelled_at;
  std::string cancel_reason;
  std::vector<std::string> nodes;  // known node names, or {"ALL"}
  // Project reservations only:
  std::string account;
  std::vector<std::string> users;  // empty: every user of the account
  std::int64_t cores = 0;
  std::int64_t cores_in_use = 0;  // by its jobs, at the last pass
  double cancel_below_use = 0;
  Duration cancel_after;
  std::optional<Time> below_since;
  std::int32_t jobs_pending = 0;
  std::int32_t jobs_running = 0;
  bool operator==(const ReservationView&) const = default;
};

struct ReservationQueryReply {
  Time now;
  std::vector<ReservationView> reservations;
  bool operator==(const ReservationQueryReply&) const = default;
};

}  // namespace fairway::wire
