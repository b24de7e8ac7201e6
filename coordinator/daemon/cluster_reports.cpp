#include "coordinator/daemon/cluster_reports.h"

#include <algorithm>
#include <map>
#include <set>

namespace fairway::daemon {
namespace {

using Labels = std::vector<wire::EnvVar>;

// Appends a family and then its samples. Holds an index, not a pointer: later families
// may reallocate the vector.
class FamilyBuilder {
 public:
  FamilyBuilder(wire::MetricsReply& reply, std::string name, std::string type, std::string help)
      : reply_(reply), index_(reply.families.size()) {
    reply.families.push_back({std::move(name), std::move(type), std::move(help), {}});
  }
  FamilyBuilder& add(Labels labels, double value, std::string suffix = {}) {
    reply_.families[index_].samples.push_back({std::move(suffix), std::move(labels), value});
    return *this;
  }

 private:
  wire::MetricsReply& reply_;
  std::size_t index_;
};

void counter(wire::MetricsReply& r, const std::string& name, const std::string& help, std::uint64_t v) {
  FamilyBuilder(r, name, "counter", help).add({}, static_cast<double>(v));
}

void gauge(wire::MetricsReply& r, const std::string& name, const std::string& help, double v) {
  FamilyBuilder(r, name, "gauge", help).add({}, v);
}

void histogram(wire::MetricsReply& r, const std::string& name, const std::string& help,
               const DurationStats& d) {
  FamilyBuilder f(r, name, "histogram", help);
  char bound[32];
  for (std::size_t i = 0; i < DurationStats::kBounds.size(); ++i) {
    std::snprintf(bound, sizeof bound, "%g", DurationStats::kBounds[i]);
    f.add({{"le", bound}}, static_cast<double>(d.at_most[i]), "_bucket");
  }
  f.add({{"le", "+Inf"}}, static_cast<double>(d.count), "_bucket");
  f.add({}, d.sum, "_sum");
  f.add({}, static_cast<double>(d.count), "_count");
}

std::string node_state(const NodeEntry* n) {
  if (n == nullptr || n->liveness == NodeLiveness::kUnknown) return "unknown";
  if (n->liveness == NodeLiveness::kDown) return "down";
  return n->drained ? "drained" : "up";
}

// Cores (or GPUs) of one node by what they are doing: allocated, idle, or unavailable
// because the node is down, drained or never registered.
void add_use(std::map<std::string, std::int64_t>& by_state, const std::vector<std::uint8_t>& used,
             const std::string& state) {
  const auto allocated = std::count(used.begin(), used.end(), 1);
  const auto rest = static_cast<std::int64_t>(used.size()) - allocated;
  by_state["allocated"] += allocated;
  by_state[state == "up" ? "idle" : state] += rest;
}

const PartitionConfig* partition_config(const Config& c, const std::string& name) {
  for (const auto& p : c.partitions) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string preempt_name(PreemptMode m) {
  switch (m) {
    case PreemptMode::kOff:
      return "off";
    case PreemptMode::kRequeue:
      return "requeue";
    case PreemptMode::kCancel:
      return "cancel";
  }
  return "off";
}

}  // namespace

wire::MetricsReply metrics_report(const ReportSources& s, bool account_usage) {
  wire::MetricsReply r;
  r.now = s.now;
  const Scheduler& sched = s.scheduler;
  const ClusterState& cluster = sched.cluster();

  std::map<std::pair<std::string, std::string>, std::int64_t> jobs;  // (state, partition)
  for (const auto list : {sched.waiting(), sched.running()}) {
    for (const JobRecord* j : list) {
      ++jobs[{std::string(to_string(j->state)), cluster.partition(j->partition).name}];
    }
  }
  FamilyBuilder job_family(r, "fairway_jobs", "gauge", "Jobs the coordinator holds, by state and partition.");
  for (const auto& [key, n] : jobs)
    job_family.add({{"state", key.first}, {"partition", key.second}}, static_cast<double>(n));

  std::map<std::string, std::int64_t> nodes_by_state;
  std::map<std::pair<std::string, std::string>, std::int64_t> cores, gpus;  // (partition, state)
  for (std::size_t p = 0; p < cluster.partition_count(); ++p) {
    const PartitionState& ps = cluster.partition(PartitionIndex(static_cast<std::uint32_t>(p)));
    std::map<std::string, std::int64_t> c, g;
    for (NodeIndex n : ps.nodes) {
      const std::string state = node_state(s.registry.at(n));
      add_use(c, cluster.node(n).core_used, state);
      add_use(g, cluster.node(n).gpu_used, state);
    }
    for (const auto& [state, v] : c) cores[{ps.name, state}] = v;
    for (const auto& [state, v] : g) gpus[{ps.name, state}] = v;
  }
  for (std::size_t i = 0; i < cluster.node_count(); ++i) {
    ++nodes_by_state[node_state(s.registry.at(NodeIndex(static_cast<std::uint32_t>(i))))];
  }
  FamilyBuilder node_family(r, "fairway_nodes", "gauge",
                            "Nodes by state: up, down, drained, unknown (never registered).");
  for (const auto& [state, n] : nodes_by_state) node_family.add({{"state", state}}, static_cast<double>(n));
  FamilyBuilder core_family(r, "fairway_cores", "gauge",
                            "Cores per partition: allocated, idle, down, drained, unknown.");
  for (const auto& [key, n] : cores)
    core_family.add({{"partition", key.first}, {"state", key.second}}, static_cast<double>(n));
  FamilyBuilder gpu_family(r, "fairway_gpus", "gauge",
                           "GPUs per partition: allocated, idle, down, drained, unknown.");
  for (const auto& [key, n] : gpus)
    gpu_family.add({{"partition", key.first}, {"state", key.second}}, static_cast<double>(n));

  const ServiceCounters& c = s.counters;
  counter(r, "fairway_passes_total", "Scheduling passes run.", c.passes);
  histogram(r, "fairway_pass_duration_seconds", "Time the scheduling core took per pass.", c.pass_seconds);
  gauge(r, "fairway_last_pass_duration_seconds", "Time the last scheduling pass took.", c.pass_seconds.last);
  gauge(r, "fairway_max_pass_duration_seconds", "Longest scheduling pass since the coordinator started.",
        c.pass_seconds.max);
  counter(r, "fairway_pass_jobs_considered_total", "Waiting jobs looked at, summed over passes.",
          c.considered);
  counter(r, "fairway_pass_jobs_started_total", "Jobs started by passes.", c.pass_started);
  counter(r, "fairway_backfill_jobs_started_total",
          "Jobs started ahead of a higher-priority pending job (backfill starts).", c.backfill_started);
  counter(r, "fairway_pass_reservations_total", "Reservations made for waiting jobs, summed over passes.",
          c.reservations);
  gauge(r, "fairway_last_pass_jobs_considered", "Waiting jobs the last pass looked at.",
        static_cast<double>(c.last_considered));
  gauge(r, "fairway_last_pass_jobs_started", "Jobs the last pass started.",
        static_cast<double>(c.last_started));
  gauge(r, "fairway_last_pass_reservations", "Reservations (backfill depth) the last pass made.",
        static_cast<double>(c.last_reservations));
  counter(r, "fairway_jobs_submitted_total", "Jobs accepted.", c.submitted);
  counter(r, "fairway_jobs_started_total", "Job launches sent to agents.", c.started);
  counter(r, "fairway_jobs_finished_total", "Jobs that reached an end state.", c.finished);
  FamilyBuilder ended(r, "fairway_jobs_ended_total", "counter",
                      "Jobs that ended, by how: completed, cancelled, failed (failed, timeout, out of "
                      "memory, node failure).");
  ended.add({{"state", "completed"}}, static_cast<double>(c.ended_completed));
  ended.add({{"state", "cancelled"}}, static_cast<double>(c.ended_cancelled));
  ended.add({{"state", "failed"}}, static_cast<double>(c.ended_failed));
  gauge(r, "fairway_start_time_seconds",
        "When the coordinator started (Unix time): what its counts run since.",
        static_cast<double>(c.started_at.seconds()));
  if (c.last_pass_at) {
    gauge(r, "fairway_last_pass_time_seconds", "When the last scheduling pass ran (Unix time).",
          static_cast<double>(c.last_pass_at->seconds()));
  }
  counter(r, "fairway_preemptions_total", "Running jobs chosen as victims of higher-tier jobs.", c.preempted);
  counter(r, "fairway_requests_refused_total", "Client requests and submissions refused, for any reason.",
          c.refused);
  counter(r, "fairway_rate_limited_total",
          "Client requests and submissions refused by the per-user rate limit.", c.rate_limited);
  counter(r, "fairway_unauthenticated_requests_total",
          "Client requests refused for want of proof of who asks.", c.unauthenticated);
  counter(r, "fairway_bad_frames_total", "Frames that could not be decoded or were not expected.",
          c.bad_frames);
  counter(r, "fairway_impostor_frames_total",
          "Agent frames refused: naming another node than their key's, or on a replaced connection.",
          c.impostor_frames);
  counter(r, "fairway_store_errors_total", "Job store writes or commits that failed.", c.store_errors);
  histogram(r, "fairway_store_commit_duration_seconds", "Time each job store transaction took to commit.",
            c.commit_seconds);

  FamilyBuilder messages(r, "fairway_messages_total", "counter",
                         "Decoded messages by type, agents and clients.");
  for (std::size_t t = 1; t < c.messages.size(); ++t) {
    const std::string_view name = wire::to_string(static_cast<wire::MessageType>(t));
    if (name == "Unknown") continue;
    messages.add({{"type", std::string(name)}}, static_cast<double>(c.messages[t]));
  }

  if (!account_usage) return r;
  const FairShareLedger& ledger = sched.fair_share();
  std::map<std::string, double> usage;
  for (AssociationIndex a = 0; a < ledger.association_count(); ++a) {
    usage[ledger.account_name(a)] = ledger.account_usage(a, s.now);
  }
  FamilyBuilder usage_family(
      r, "fairway_account_usage", "gauge",
      "Fair-share usage per account in billing units (decayed or windowed as configured).");
  for (const auto& [account, u] : usage) usage_family.add({{"account", account}}, u);
  return r;
}

Result<wire::PartitionQueryReply> partition_report(const ReportSources& s, const wire::PartitionQuery& q) {
  const Scheduler& sched = s.scheduler;
  const ClusterState& cluster = sched.cluster();
  std::vector<PartitionIndex> chosen;
  if (q.partitions.empty()) {
    for (std::size_t p = 0; p < cluster.partition_count(); ++p)
      chosen.emplace_back(static_cast<std::uint32_t>(p));
  }
  for (const std::string& name : q.partitions) {
    auto p = cluster.find_partition(name);
    if (!p) {
      std::string known;
      for (std::size_t i = 0; i < cluster.partition_count(); ++i) {
        known += (known.empty() ? "" : ", ") +
                 cluster.partition(PartitionIndex(static_cast<std::uint32_t>(i))).name;
      }
      return make_error(ErrorCode::kNotFound,
                        "partition '" + name + "' does not exist (partitions: " + known + ")");
    }
    chosen.push_back(*p);
  }
  std::map<std::uint32_t, std::pair<std::int32_t, std::int32_t>> jobs;  // pending, running
  for (const JobRecord* j : sched.waiting()) ++jobs[j->partition.value()].first;
  for (const JobRecord* j : sched.running()) ++jobs[j->partition.value()].second;

  wire::PartitionQueryReply reply;
  for (PartitionIndex p : chosen) {
    const PartitionState& ps = cluster.partition(p);
    wire::PartitionView v;
    v.name = ps.name;
    for (NodeIndex n : ps.nodes) {
      const NodeState& ns = cluster.node(n);
      v.nodes.push_back(ns.topology.name);
      const NodeEntry* e = s.registry.at(n);
      if (e != nullptr && e->liveness == NodeLiveness::kUp) ++v.nodes_up;
      v.cores += static_cast<std::int64_t>(ns.core_used.size());
      v.cores_used += std::count(ns.core_used.begin(), ns.core_used.end(), 1);
      v.gpus += static_cast<std::int64_t>(ns.gpu_used.size());
      v.gpus_used += std::count(ns.gpu_used.begin(), ns.gpu_used.end(), 1);
    }
    const PartitionConfig defaults;
    const PartitionConfig* pc = partition_config(sched.config(), ps.name);
    const PartitionConfig& c = pc != nullptr ? *pc : defaults;
    v.is_default = pc == nullptr || c.is_default;
    v.max_time = c.max_time;
    v.default_time = c.default_time;
    v.priority = c.priority;
    v.priority_tier = c.priority_tier;
    v.preempt = preempt_name(c.preempt);
    v.default_qos = c.default_qos;
    v.allocation_unit = std::string(to_string(ps.placement.allocation_unit));
    v.jobs_pending = jobs[p.value()].first;
    v.jobs_running = jobs[p.value()].second;
    v.allow_accounts = c.access.allow_accounts;
    v.deny_accounts = c.access.deny_accounts;
    v.allow_groups = c.access.allow_groups;
    v.allow_qos = c.access.allow_qos;
    v.deny_qos = c.access.deny_qos;
    if (c.default_for_interactive) v.flags.push_back("default_for_interactive");
    if (c.killable) v.flags.push_back("killable");
    if (c.clamp_time_limit) v.flags.push_back("clamp_time_limit");
    if (c.whole_nodes_above_node_size) v.flags.push_back("whole_nodes_above_node_size");
    if (ps.placement.socket_exclusive_gpus) v.flags.push_back("socket_exclusive_gpus");
    reply.partitions.push_back(std::move(v));
  }
  return reply;
}

wire::SharesReply shares_report(const ReportSources& s, const wire::SharesQuery& q,
                                const std::optional<std::string>& only_user) {
  const Scheduler& sched = s.scheduler;
  const Config& config = sched.config();
  const FairShareLedger& ledger = sched.fair_share();
  const bool fair_tree = config.fairshare.mode == FairShareMode::kFairTree;
  const std::vector<double> tree = fair_tree ? ledger.fair_tree_factors(s.now) : std::vector<double>();
  const double total = ledger.total_usage(s.now);
  const auto share_of = [&](double u) { return total > 0 ? u / total : 0.0; };

  wire::SharesReply reply;
  reply.now = s.now;
  reply.algorithm = fair_tree ? "fair_tree" : "classic";
  // The accounts the caller may see under private_data: those they have used.
  std::set<std::string> visible_accounts;
  if (only_user) {
    for (AssociationIndex a = 0; a < ledger.association_count(); ++a) {
      if (ledger.user_name(a) == *only_user) visible_accounts.insert(ledger.account_name(a));
    }
  }
  // Accounts with no association yet (nobody ran under them) still show, from the config.
  std::map<std::string, std::vector<AssociationIndex>> by_account;
  for (AssociationIndex a = 0; a < ledger.association_count(); ++a)
    by_account[ledger.account_name(a)].push_back(a);
  double all_account_shares = 0;
  for (const auto& a : config.accounts) all_account_shares += a.shares;
  for (const auto& a : config.accounts) by_account.try_emplace(a.name);

  for (auto& [account, members] : by_account) {
    if (!q.account.empty() && account != q.account) continue;
    if (only_user && !visible_accounts.contains(account)) continue;
    wire::ShareView row;
    row.account = account;
    if (!members.empty()) {
      row.raw_shares = ledger.account_shares(members.front());
      row.norm_shares = ledger.account_normalized_shares(members.front());
      row.raw_usage = ledger.account_usage(members.front(), s.now);
    } else {
      for (const auto& a : config.accounts) {
        if (a.name != account) continue;
        row.raw_shares = a.shares;
        row.norm_shares = all_account_shares > 0 ? a.shares / all_account_shares : 0.0;
      }
    }
    row.effective_usage = share_of(row.raw_usage);
    reply.rows.push_back(row);  // the account's line frames its users
    std::sort(members.begin(), members.end(), [&](AssociationIndex x, AssociationIndex y) {
      return ledger.user_name(x) < ledger.user_name(y);
    });
    for (AssociationIndex a : members) {
      const std::string& user = ledger.user_name(a);
      if (!q.user.empty() && user != q.user) continue;
      if (only_user && user != *only_user) continue;
      wire::ShareView u;
      u.account = account;
      u.user = user;
      u.raw_shares = ledger.user_shares(a);
      u.norm_shares = ledger.normalized_shares(a);
      u.raw_usage = ledger.user_usage(a, s.now);
      u.effective_usage = share_of(u.raw_usage);
      u.fairshare = fair_tree ? (a < tree.size() ? tree[a] : 0.0) : ledger.factor(a, s.now);
      reply.rows.push_back(std::move(u));
    }
  }
  return reply;
}

}  // namespace fairway::daemon
