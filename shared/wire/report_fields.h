// The field lists of report_messages.h: metrics, partitions, shares and reservations, and
// JobUpdate, SetTimeLimit and SendSignal; unset times left out, every field checked when read.
#pragma once

#include <string>
#include <string_view>

#include "shared/wire/field_list.h"

namespace fairway::wire::detail {

// A metric name or label name as Prometheus allows them: [a-zA-Z_:][a-zA-Z0-9_:]*. The
// coordinator's names always are; a peer's that are not would corrupt the text format.
inline bool prometheus_name(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

// A metric or label name ("not a metric name") where `allow_empty` does not let it be empty.
template <bool allow_empty>
struct MetricName {
  static void put(Packer& pk, const std::string& v) { detail::put(pk, std::string_view(v)); }
  static std::string read(MapReader& r, std::string_view key, const Rule&) {
    std::string s = r.str(key, 256);
    if (!r.failed() && !(allow_empty && s.empty()) && !prometheus_name(s)) {
      r.errors().fail(r.path_of(key), "not a metric name: \"" + s.substr(0, 64) + "\"");
    }
    return s;
  }
};

template <class V, FieldsOf<MetricsQuery> M>
void fields(V&, M&) {}

template <class V, FieldsOf<MetricSample> M>
void fields(V& v, M& s) {
  v.field("suffix", s.suffix, {}, MetricName<true>{});
  v.field("labels", s.labels);
  v.field("value", s.value);
}

inline void check_fields(MapReader& r, MetricSample& s) {
  for (std::size_t i = 0; i < s.labels.size() && !r.failed(); ++i) {
    if (!prometheus_name(s.labels[i].first)) {
      r.errors().fail(item_path(r, "labels", i),
                      "not a label name: \"" + s.labels[i].first.substr(0, 64) + "\"");
    }
  }
}

template <class V, FieldsOf<MetricFamily> M>
void fields(V& v, M& f) {
  v.field("name", f.name, {}, MetricName<false>{});
  v.field("type", f.type, {.max_bytes = 16});
  v.field("help", f.help, {.max_bytes = 1024});
  v.field("samples", f.samples);
}

inline void check_fields(MapReader& r, MetricFamily& f) {
  if (f.type != "counter" && f.type != "gauge" && f.type != "histogram") {
    r.errors().fail(r.path_of("type"), "not counter, gauge or histogram: \"" + f.type + "\"");
  }
}

template <class V, FieldsOf<MetricsReply> M>
void fields(V& v, M& m) {
  v.field("now", m.now);
  v.field("families", m.families);
}

template <class V, FieldsOf<PartitionQuery> M>
void fields(V& v, M& m) {
  v.field("partitions", m.partitions, {.max_entries = kMaxNamesPerRequest});
}

template <class V, FieldsOf<PartitionView> M>
void fields(V& v, M& p) {
  v.field("name", p.name);
  v.field("is_default", p.is_default);
  v.field("nodes", p.nodes);
  v.field("nodes_up", p.nodes_up, kCount);
  v.field("cores", p.cores, kCount);
  v.field("cores_used", p.cores_used, kCount);
  v.field("gpus", p.gpus, kCount);
  v.field("gpus_used", p.gpus_used, kCount);
  v.field("max_time", p.max_time, kCount);
  v.field("default_time", p.default_time, kCount);
  v.field("priority", p.priority);
  v.field("priority_tier", p.priority_tier);
  v.field("preempt", p.preempt, {.max_bytes = 16});
  v.field("default_qos", p.default_qos);
  v.field("allocation_unit", p.allocation_unit, {.max_bytes = 16});
  v.field("jobs_pending", p.jobs_pending, kCount);
  v.field("jobs_running", p.jobs_running, kCount);
  v.field("flags", p.flags);
  v.field("allow_accounts", p.allow_accounts, kDefaulted);
  v.field("deny_accounts", p.deny_accounts, kDefaulted);
  v.field("allow_groups", p.allow_groups, kDefaulted);
  v.field("allow_qos", p.allow_qos, kDefaulted);
  v.field("deny_qos", p.deny_qos, kDefaulted);
}

template <class V, FieldsOf<PartitionQueryReply> M>
void fields(V& v, M& m) {
  v.field("partitions", m.partitions);
}

template <class V, FieldsOf<SharesQuery> M>
void fields(V& v, M& m) {
  v.field("user", m.user);
  v.field("account", m.account);
  v.field("callers_own", m.callers_own, kWhenSet);
}

template <class V, FieldsOf<ShareView> M>
void fields(V& v, M& s) {
  v.field("account", s.account);
  v.field("user", s.user);
  v.field("raw_shares", s.raw_shares);
  v.field("norm_shares", s.norm_shares);
  v.field("raw_usage", s.raw_usage);
  v.field("effective_usage", s.effective_usage);
  v.field("fairshare", s.fairshare);
}

template <class V, FieldsOf<SharesReply> M>
void fields(V& v, M& m) {
  v.field("now", m.now);
  v.field("algorithm", m.algorithm, {.max_bytes = 16});
  v.field("rows", m.rows);
}

// The new_ keys are keys of their own, so that the unset ones can be left out without a sentinel.
template <class V, FieldsOf<JobUpdate> M>
void fields(V& v, M& m) {
  v.field("jobs", m.jobs, {.max_entries = kMaxIdsPerRequest});
  v.field("partition", m.partition);
  v.field("qos", m.qos);
  v.field("account", m.account);
  v.field("name", m.name);
  v.field("new_time_limit", m.time_limit);
  v.field("new_comment", m.comment);
  v.field("new_nice", m.nice);
  v.field("new_begin", m.begin);
}

inline void check_fields(MapReader& r, JobUpdate& m) {
  if (m.time_limit && m.time_limit->count() <= 0) {
    r.errors().fail(r.path_of("new_time_limit"), "must be > 0, got " + std::to_string(m.time_limit->count()));
  }
}

template <class V, FieldsOf<SetTimeLimit> M>
void fields(V& v, M& m) {
  v.field("job", m.job);
  v.field("time_limit", m.time_limit, kCount);
}

template <class V, FieldsOf<SendSignal> M>
void fields(V& v, M& m) {
  v.field("job", m.job);
  v.field("signal", m.signal, {.min = 1});
  v.field("batch_only", m.batch_only);
}

inline void check_fields(MapReader& r, SendSignal& m) {
  if (m.signal > 64) r.errors().fail(r.path_of("signal"), "must be 1-64, got " + std::to_string(m.signal));
}

template <class V, FieldsOf<ReservationQuery> M>
void fields(V& v, M& m) {
  v.field("names", m.names, {.max_entries = kMaxNamesPerRequest});
}

template <class V, FieldsOf<ReservationView> M>
void fields(V& v, M& m) {
  v.field("name", m.name);
  v.field("kind", m.kind, {.max_bytes = 16});
  v.field("state", m.state, {.max_bytes = 16});
  v.field("start", m.start);
  v.field("end", m.end);
  v.field("cancelled_at", m.cancelled_at);
  v.field("cancel_reason", m.cancel_reason);
  v.field("nodes", m.nodes);
  v.field("account", m.account);
  v.field("users", m.users);
  v.field("cores", m.cores, kCount);
  v.field("cores_in_use", m.cores_in_use, kCount);
  v.field("cancel_below_use", m.cancel_below_use);
  v.field("cancel_after", m.cancel_after, kCount);
  v.field("below_since", m.below_since);
  v.field("jobs_pending", m.jobs_pending, kCount);
  v.field("jobs_running", m.jobs_running, kCount);
}

inline void check_fields(MapReader& r, ReservationView& v) {
  if (v.kind != "maintenance" && v.kind != "project") {
    r.errors().fail(r.path_of("kind"), "not maintenance or project: \"" + v.kind + "\"");
  }
}

template <class V, FieldsOf<ReservationQueryReply> M>
void fields(V& v, M& m) {
  v.field("now", m.now);
  v.field("reservations", m.reservations);
}

}  // namespace fairway::wire::detail
