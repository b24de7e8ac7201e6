#include "client/fairway/report_commands.h"

#include "client/views/slurm/sdiag_view.h"

#include "client/views/slurm/slurm_report_views.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>

#include <nlohmann/json.hpp>

#include "client/views/fairway/config_view.h"
#include "client/views/metric_value.h"
#include "client/views/slurm/association_view.h"
#include "client/views/slurm/scontrol_node_view.h"
#include "client/views/text_format.h"
#include "shared/base/duration_format.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

using Json = nlohmann::ordered_json;

const wire::MetricFamily* family(const wire::MetricsReply& r, std::string_view name) {
  for (const auto& f : r.families) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1000.0);
  return buf;
}

std::string count(double v) {
  return std::to_string(static_cast<std::uint64_t>(v));
}

// "pending 12, running 3" from a family's samples grouped by one label.
std::string by_label(const wire::MetricsReply& r, std::string_view name, std::string_view label) {
  std::map<std::string, double> sums;
  if (const wire::MetricFamily* f = family(r, name)) {
    for (const auto& s : f->samples) {
      for (const auto& [k, v] : s.labels) {
        if (k == label) sums[v] += s.value;
      }
    }
  }
  std::string out;
  for (const auto& [k, v] : sums) {
    if (v == 0) continue;
    out += (out.empty() ? "" : ", ") + k + " " + count(v);
  }
  return out.empty() ? "none" : out;
}

std::string duration_text(Duration d) {
  return format_walltime(d);
}

}  // namespace

int run_diag(bool json, bool sdiag, const Transport& transport, const Output& io) {
  auto reply = ask<wire::MetricsReply>(wire::MetricsQuery{}, transport, io);
  if (!reply) return kExitFailure;
  io.out << (json    ? metrics_json(*reply)
             : sdiag ? render_sdiag(*reply, gettimeofday_latency_us())
                     : render_diag(*reply));
  return kExitOk;
}

std::string render_diag(const wire::MetricsReply& r) {
  std::string out;
  const auto line = [&](std::string_view key, const std::string& value) {
    std::string k(key);
    k.resize(std::max<std::size_t>(k.size() + 1, 34), ' ');
    out += k + value + "\n";
  };
  out += "Coordinator statistics at " + format_local_time(r.now) + "\n";
  const double passes = metric_value(r, "fairway_passes_total");
  const double timed = metric_value(r, "fairway_pass_duration_seconds", "_count");
  line("Scheduling passes:", count(passes));
  line("  duration last / mean / max:",
       ms(metric_value(r, "fairway_last_pass_duration_seconds")) + " / " +
           ms(timed > 0 ? metric_value(r, "fairway_pass_duration_seconds", "_sum") / timed : 0) + " / " +
           ms(metric_value(r, "fairway_max_pass_duration_seconds")));
  char mean[32];
  std::snprintf(mean, sizeof mean, "%.1f",
                passes > 0 ? metric_value(r, "fairway_pass_jobs_considered_total") / passes : 0);
  line("  jobs considered last / mean:",
       count(metric_value(r, "fairway_last_pass_jobs_considered")) + " / " + mean);
  line("  jobs started all / last pass:", count(metric_value(r, "fairway_pass_jobs_started_total")) + " / " +
                                              count(metric_value(r, "fairway_last_pass_jobs_started")));
  line("  of them backfilled:", count(metric_value(r, "fairway_backfill_jobs_started_total")));
  line("  backfill depth (reservations):",
       count(metric_value(r, "fairway_last_pass_reservations")) + " in the last pass");
  line("Jobs submitted / started / finished:",
       count(metric_value(r, "fairway_jobs_submitted_total")) + " / " +
           count(metric_value(r, "fairway_jobs_started_total")) + " / " +
           count(metric_value(r, "fairway_jobs_finished_total")));
  line("Jobs in the queue now:", by_label(r, "fairway_jobs", "state"));
  line("Preemptions:", count(metric_value(r, "fairway_preemptions_total")));
  line("Nodes:", by_label(r, "fairway_nodes", "state"));
  const double commits = metric_value(r, "fairway_store_commit_duration_seconds", "_count");
  line("Store commits:",
       count(commits) + ", mean " +
           ms(commits > 0 ? metric_value(r, "fairway_store_commit_duration_seconds", "_sum") / commits : 0));
  line("Store errors:", count(metric_value(r, "fairway_store_errors_total")));
  line("Refused requests:", count(metric_value(r, "fairway_requests_refused_total")) + " (rate limit " +
                                count(metric_value(r, "fairway_rate_limited_total")) + ", unauthenticated " +
                                count(metric_value(r, "fairway_unauthenticated_requests_total")) + ")");
  line("Bad frames / impostor agent frames:", count(metric_value(r, "fairway_bad_frames_total")) + " / " +
                                                  count(metric_value(r, "fairway_impostor_frames_total")));
  out += "Messages by type:\n";
  if (const wire::MetricFamily* f = family(r, "fairway_messages_total")) {
    for (const auto& s : f->samples) {
      if (s.value == 0 || s.labels.empty()) continue;
      line("  " + s.labels.front().second, count(s.value));
    }
  }
  return out;
}

std::string metrics_json(const wire::MetricsReply& r) {
  Json families = Json::array();
  for (const auto& f : r.families) {
    Json samples = Json::array();
    for (const auto& s : f.samples) {
      Json labels = Json::object();
      for (const auto& [k, v] : s.labels) labels[k] = v;
      samples.push_back({{"name", f.name + s.suffix}, {"labels", labels}, {"value", s.value}});
    }
    families.push_back({{"name", f.name}, {"type", f.type}, {"help", f.help}, {"samples", samples}});
  }
  return Json{{"now", r.now.seconds()}, {"metrics", families}}.dump(2) + "\n";
}

int run_show_config(bool scontrol, const Transport& transport, const Output& io) {
  auto reply = ask<wire::ConfigReply>(wire::ConfigQuery{}, transport, io);
  if (!reply) return kExitFailure;
  io.out << (scontrol ? render_scontrol_config(*reply) : render_config(*reply));
  return kExitOk;
}

int run_show_partition(const std::vector<std::string>& names, bool json, bool scontrol,
                       const Transport& transport, const Output& io) {
  if (scontrol) {
    // Every partition, filtered here: an unknown name is then scontrol's own words.
    auto all = ask<wire::PartitionQueryReply>(wire::PartitionQuery{}, transport, io);
    if (!all) return kExitFailure;
    for (const std::string& n : names) {
      if (std::none_of(all->partitions.begin(), all->partitions.end(),
                       [&](const wire::PartitionView& p) { return p.name == n; })) {
        io.err << "Partition " << n << " not found\n";
        return kExitFailure;
      }
    }
    for (const auto& p : all->partitions) {
      if (names.empty() || std::find(names.begin(), names.end(), p.name) != names.end()) {
        io.out << render_scontrol_partition(p);
      }
    }
    return kExitOk;
  }
  auto reply = ask<wire::PartitionQueryReply>(wire::PartitionQuery{names}, transport, io);
  if (!reply) return kExitFailure;
  if (json) {
    io.out << partitions_json(*reply);
    return kExitOk;
  }
  for (std::size_t i = 0; i < reply->partitions.size(); ++i) {
    if (i > 0) io.out << "\n";
    io.out << render_partition_detail(reply->partitions[i]);
  }
  return kExitOk;
}

std::string render_partition_detail(const wire::PartitionView& p) {
  std::string out;
  const auto line = [&](std::string_view key, const std::string& value) {
    out += std::string(key) + ": " + value + "\n";
  };
  line("PartitionName", p.name);
  line("Default", p.is_default ? "YES" : "NO");
  line("Nodes", p.nodes.empty() ? "(none yet)" : compress_hostlist(p.nodes));
  line("NodesUp", std::to_string(p.nodes_up) + "/" + std::to_string(p.nodes.size()));
  line("Cores", std::to_string(p.cores_used) + "/" + std::to_string(p.cores) + " allocated");
  line("GPUs", std::to_string(p.gpus_used) + "/" + std::to_string(p.gpus) + " allocated");
  line("MaxTime", duration_text(p.max_time));
  line("DefaultTime", duration_text(p.default_time));
  line("Priority", format_number(p.priority));
  line("PriorityTier", std::to_string(p.priority_tier));
  line("PreemptMode", p.preempt);
  line("DefaultQOS", p.default_qos.empty() ? "(none)" : p.default_qos);
  line("AllocationUnit", p.allocation_unit);
  line("Jobs", std::to_string(p.jobs_pending) + " waiting, " + std::to_string(p.jobs_running) + " running");
  line("Flags", p.flags.empty() ? "(none)" : join(p.flags, ","));
  // Who may use it: only the rules it has (an open partition shows none).
  for (const auto& [name, list] :
       {std::pair{"AllowAccounts", &p.allow_accounts}, std::pair{"DenyAccounts", &p.deny_accounts},
        std::pair{"AllowGroups", &p.allow_groups}, std::pair{"AllowQos", &p.allow_qos},
        std::pair{"DenyQos", &p.deny_qos}}) {
    if (!list->empty()) line(name, join(*list, ","));
  }
  return out;
}

std::string partitions_json(const wire::PartitionQueryReply& reply) {
  Json parts = Json::array();
  const auto seconds = [](Duration d) { return d.is_infinite() ? Json(nullptr) : Json(d.count()); };
  for (const auto& p : reply.partitions) {
    parts.push_back({{"name", p.name},
                     {"is_default", p.is_default},
                     {"nodes", p.nodes},
                     {"nodes_up", p.nodes_up},
                     {"cores", p.cores},
                     {"cores_used", p.cores_used},
                     {"gpus", p.gpus},
                     {"gpus_used", p.gpus_used},
                     {"max_time", seconds(p.max_time)},
                     {"default_time", seconds(p.default_time)},
                     {"priority", p.priority},
                     {"priority_tier", p.priority_tier},
                     {"preempt", p.preempt},
                     {"default_qos", p.default_qos},
                     {"allocation_unit", p.allocation_unit},
                     {"jobs_pending", p.jobs_pending},
                     {"jobs_running", p.jobs_running},
                     {"flags", p.flags},
                     {"allow_accounts", p.allow_accounts},
                     {"deny_accounts", p.deny_accounts},
                     {"allow_groups", p.allow_groups},
                     {"allow_qos", p.allow_qos},
                     {"deny_qos", p.deny_qos}});
  }
  return Json{{"partitions", parts}}.dump(2) + "\n";
}

int run_shares(const SharesOptions& o, const Transport& transport, const Output& io) {
  AssociationLayout layout;
  if (!o.list.empty()) {
    auto list = parse_association_list(o.list);
    if (!list) return report_error(io, "--list: " + list.error().message, kExitUsage);
    layout = AssociationLayout{*list, o.format, o.parsable, !o.noheader, !o.user.empty()};
  }
  wire::SharesQuery q{o.user, o.account};
  q.callers_own = o.sshare && !o.all_users && o.user.empty();
  auto reply = ask<wire::SharesReply>(q, transport, io);
  if (!reply) return kExitFailure;
  if (o.sshare && !o.json) {
    SshareLayout table;
    table.every_account = o.all_users;
    table.from_accounts = !o.account.empty();
    table.header = !o.noheader;
    table.parsable = o.parsable;
    table.trailing_bar = o.trailing_bar;
    io.out << render_sshare(*reply, table);
    return kExitOk;
  }
  if (!o.list.empty() && !o.json) {
    auto text = render_associations(*reply, layout);
    if (!text) return report_error(io, text.error().message, kExitUsage);
    io.out << *text;
    return kExitOk;
  }
  io.out << (o.json ? shares_json(*reply) : render_shares(*reply));
  return kExitOk;
}

std::string render_shares(const wire::SharesReply& reply) {
  std::vector<std::vector<std::string>> rows;
  char buf[32];
  const auto fixed = [&](double v, const char* fmt) {
    std::snprintf(buf, sizeof buf, fmt, v);
    return std::string(buf);
  };
  for (const auto& s : reply.rows) {
    const bool user_row = !s.user.empty();
    // As sshare: users sit one level under their account.
    rows.push_back({user_row ? " " + s.account : s.account, s.user, format_number(s.raw_shares),
                    fixed(s.norm_shares, "%.6f"), fixed(s.raw_usage, "%.0f"),
                    fixed(s.effective_usage, "%.6f"), user_row ? fixed(s.fairshare, "%.6f") : ""});
  }
  return "Fair-share algorithm: " + reply.algorithm + "\n" +
         render_table({"Account", "User", "RawShares", "NormShares", "RawUsage", "EffectvUsage", "FairShare"},
                      rows);
}

std::string shares_json(const wire::SharesReply& reply) {
  Json rows = Json::array();
  for (const auto& s : reply.rows) {
    Json row = {{"account", s.account},       {"user", s.user.empty() ? Json(nullptr) : Json(s.user)},
                {"raw_shares", s.raw_shares}, {"norm_shares", s.norm_shares},
                {"raw_usage", s.raw_usage},   {"effective_usage", s.effective_usage}};
    if (!s.user.empty()) row["fairshare"] = s.fairshare;
    rows.push_back(std::move(row));
  }
  return Json{{"now", reply.now.seconds()}, {"algorithm", reply.algorithm}, {"shares", rows}}.dump(2) + "\n";
}

}  // namespace fairway::cli
