// Payloads of the report messages (metrics, partitions, shares), of JobUpdate, SetTimeLimit
// and SendSignal: maps with string keys, every field checked when read, as for the others.
#include "shared/wire/codec_parts.h"

namespace fairway::wire::detail {
namespace {

// A metric name or label name as Prometheus allows them: [a-zA-Z_:][a-zA-Z0-9_:]*. The
// coordinator's names always are; a peer's that are not would corrupt the text format.
bool prometheus_name(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

std::string read_name(MapReader& r, std::string_view key, bool allow_empty) {
  std::string s = r.str(key, 256);
  if (!r.failed() && !(allow_empty && s.empty()) && !prometheus_name(s)) {
    r.errors().fail(r.path_of(key), "not a metric name: \"" + s.substr(0, 64) + "\"");
  }
  return s;
}

MetricSample read_sample(MapReader& r) {
  MetricSample s;
  s.suffix = read_name(r, "suffix", true);
  s.labels = r.env("labels");
  for (std::size_t i = 0; i < s.labels.size() && !r.failed(); ++i) {
    if (!prometheus_name(s.labels[i].first)) {
      r.errors().fail(item_path(r, "labels", i), "not a label name: \"" + s.labels[i].first.substr(0, 64) + "\"");
    }
  }
  s.value = r.f64("value");
  return s;
}

MetricFamily read_family(MapReader& r) {
  MetricFamily f;
  f.name = read_name(r, "name", false);
  f.type = r.str("type", 16);
  if (!r.failed() && f.type != "counter" && f.type != "gauge" && f.type != "histogram") {
    r.errors().fail(r.path_of("type"), "not counter, gauge or histogram: \"" + f.type + "\"");
  }
  f.help = r.str("help", 1024);
  f.samples = read_maps<MetricSample>(r, "samples", read_sample);
  return f;
}

PartitionView read_partition(MapReader& r) {
  PartitionView p;
  p.name = r.str("name");
  p.is_default = r.boolean("is_default");
  p.nodes = r.str_list("nodes");
  p.nodes_up = r.i32("nodes_up", 0);
  p.cores = r.i64("cores", 0);
  p.cores_used = r.i64("cores_used", 0);
  p.gpus = r.i64("gpus", 0);
  p.gpus_used = r.i64("gpus_used", 0);
  p.max_time = Duration::seconds(r.i64("max_time", 0));
  p.default_time = Duration::seconds(r.i64("default_time", 0));
  p.priority = r.f64("priority");
  p.priority_tier = r.i32("priority_tier");
  p.preempt = r.str("preempt", 16);
  p.default_qos = r.str("default_qos");
  p.allocation_unit = r.str("allocation_unit", 16);
  p.jobs_pending = r.i32("jobs_pending", 0);
  p.jobs_running = r.i32("jobs_running", 0);
  p.flags = r.str_list("flags");
  for (auto [key, out] : {std::pair{"allow_accounts", &p.allow_accounts}, std::pair{"deny_accounts", &p.deny_accounts},
                          std::pair{"allow_groups", &p.allow_groups}, std::pair{"allow_qos", &p.allow_qos},
                          std::pair{"deny_qos", &p.deny_qos}}) {
    if (r.has(key)) *out = r.str_list(key);
  }
  return p;
}

ShareView read_share(MapReader& r) {
  ShareView s;
  s.account = r.str("account");
  s.user = r.str("user");
  s.raw_shares = r.f64("raw_shares");
  s.norm_shares = r.f64("norm_shares");
  s.raw_usage = r.f64("raw_usage");
  s.effective_usage = r.f64("effective_usage");
  s.fairshare = r.f64("fairshare");
  return s;
}

}  // namespace

void encode_payload(Packer& pk, const MetricsQuery&) { pk.pack_map(0); }

void encode_payload(Packer& pk, const MetricsReply& m) {
  pk.pack_map(2);
  put_kv(pk, "now", m.now.seconds());
  put(pk, std::string_view("families"));
  pk.pack_array(size32(m.families.size()));
  for (const MetricFamily& f : m.families) {
    pk.pack_map(4);
    put_kv(pk, "name", std::string_view(f.name));
    put_kv(pk, "type", std::string_view(f.type));
    put_kv(pk, "help", std::string_view(f.help));
    put(pk, std::string_view("samples"));
    pk.pack_array(size32(f.samples.size()));
    for (const MetricSample& s : f.samples) {
      pk.pack_map(3);
      put_kv(pk, "suffix", std::string_view(s.suffix));
      put_kv(pk, "labels", s.labels);
      put_kv(pk, "value", s.value);
    }
  }
}

void encode_payload(Packer& pk, const PartitionQuery& m) {
  pk.pack_map(1);
  put_kv(pk, "partitions", m.partitions);
}

void encode_payload(Packer& pk, const PartitionQueryReply& m) {
  pk.pack_map(1);
  put(pk, std::string_view("partitions"));
  pk.pack_array(size32(m.partitions.size()));
  for (const PartitionView& p : m.partitions) {
    pk.pack_map(23);
    put_kv(pk, "name", std::string_view(p.name));
    put_kv(pk, "is_default", p.is_default);
    put_kv(pk, "nodes", p.nodes);
    put_kv(pk, "nodes_up", p.nodes_up);
    put_kv(pk, "cores", p.cores);
    put_kv(pk, "cores_used", p.cores_used);
    put_kv(pk, "gpus", p.gpus);
    put_kv(pk, "gpus_used", p.gpus_used);
    put_kv(pk, "max_time", p.max_time.count());
    put_kv(pk, "default_time", p.default_time.count());
    put_kv(pk, "priority", p.priority);
    put_kv(pk, "priority_tier", p.priority_tier);
    put_kv(pk, "preempt", std::string_view(p.preempt));
    put_kv(pk, "default_qos", std::string_view(p.default_qos));
    put_kv(pk, "allocation_unit", std::string_view(p.allocation_unit));
    put_kv(pk, "jobs_pending", p.jobs_pending);
    put_kv(pk, "jobs_running", p.jobs_running);
    put_kv(pk, "flags", p.flags);
    put_kv(pk, "allow_accounts", p.allow_accounts);
    put_kv(pk, "deny_accounts", p.deny_accounts);
    put_kv(pk, "allow_groups", p.allow_groups);
    put_kv(pk, "allow_qos", p.allow_qos);
    put_kv(pk, "deny_qos", p.deny_qos);
  }
}

void encode_payload(Packer& pk, const SharesQuery& m) {
  pk.pack_map(2 + (m.callers_own ? 1 : 0));
  put_kv(pk, "user", std::string_view(m.user));
  put_kv(pk, "account", std::string_view(m.account));
  if (m.callers_own) put_kv(pk, "callers_own", true);
}

void encode_payload(Packer& pk, const SharesReply& m) {
  pk.pack_map(3);
  put_kv(pk, "now", m.now.seconds());
  put_kv(pk, "algorithm", std::string_view(m.algorithm));
  put(pk, std::string_view("rows"));
  pk.pack_array(size32(m.rows.size()));
  for (const ShareView& s : m.rows) {
    pk.pack_map(7);
    put_kv(pk, "account", std::string_view(s.account));
    put_kv(pk, "user", std::string_view(s.user));
    put_kv(pk, "raw_shares", s.raw_shares);
    put_kv(pk, "norm_shares", s.norm_shares);
    put_kv(pk, "raw_usage", s.raw_usage);
    put_kv(pk, "effective_usage", s.effective_usage);
    put_kv(pk, "fairshare", s.fairshare);
  }
}

void encode_payload(Packer& pk, const JobUpdate& m) {
  pk.pack_map(5 + (m.time_limit ? 1 : 0) + (m.comment ? 1 : 0) + (m.nice ? 1 : 0) + (m.begin ? 1 : 0));
  put_kv(pk, "jobs", m.jobs);
  put_kv(pk, "partition", std::string_view(m.partition));
  put_kv(pk, "qos", std::string_view(m.qos));
  put_kv(pk, "account", std::string_view(m.account));
  put_kv(pk, "name", std::string_view(m.name));
  // Keys of their own, so that the unset ones can be left out without a sentinel.
  if (m.time_limit) put_kv(pk, "new_time_limit", m.time_limit->count());
  if (m.comment) put_kv(pk, "new_comment", std::string_view(*m.comment));
  if (m.nice) put_kv(pk, "new_nice", *m.nice);
  if (m.begin) put_kv(pk, "new_begin", m.begin->seconds());
}

void encode_payload(Packer& pk, const SetTimeLimit& m) {
  pk.pack_map(2);
  put_kv(pk, "job", m.job.value());
  put_kv(pk, "time_limit", m.time_limit.count());
}

void encode_payload(Packer& pk, const SendSignal& m) {
  pk.pack_map(3);
  put_kv(pk, "job", m.job.value());
  put_kv(pk, "signal", m.signal);
  put_kv(pk, "batch_only", m.batch_only);
}

Message read_report_payload(MessageType type, MapReader& r) {
  switch (type) {
    case MessageType::kMetricsQuery: return MetricsQuery{};
    case MessageType::kMetricsReply: {
      MetricsReply m;
      m.now = Time::from_seconds(r.i64("now"));
      m.families = read_maps<MetricFamily>(r, "families", read_family);
      return m;
    }
    case MessageType::kPartitionQuery: return PartitionQuery{r.str_list("partitions", kMaxNamesPerRequest)};
    case MessageType::kPartitionQueryReply:
      return PartitionQueryReply{read_maps<PartitionView>(r, "partitions", read_partition)};
    case MessageType::kSharesQuery: {
      SharesQuery q{r.str("user"), r.str("account")};
      q.callers_own = r.opt_boolean("callers_own").value_or(false);
      return q;
    }
    case MessageType::kSharesReply: {
      SharesReply m;
      m.now = Time::from_seconds(r.i64("now"));
      m.algorithm = r.str("algorithm", 16);
      m.rows = read_maps<ShareView>(r, "rows", read_share);
      return m;
    }
    case MessageType::kJobUpdate: {
      JobUpdate m;
      const auto ids = r.u64_list("jobs", kMaxIdsPerRequest);
      for (std::uint64_t id : ids) m.jobs.emplace_back(id);
      m.partition = r.str("partition");
      m.qos = r.str("qos");
      m.account = r.str("account");
      m.name = r.str("name");
      if (auto t = r.opt_i64("new_time_limit")) {
        if (*t <= 0) r.errors().fail(r.path_of("new_time_limit"), "must be > 0, got " + std::to_string(*t));
        m.time_limit = Duration::seconds(*t);
      }
      if (r.has("new_comment")) m.comment = r.str("new_comment");
      m.nice = r.opt_i32("new_nice");
      if (auto b = r.opt_i64("new_begin")) m.begin = Time::from_seconds(*b);
      return m;
    }
    case MessageType::kSetTimeLimit: {
      SetTimeLimit m;
      m.job = JobId(r.u64("job"));
      m.time_limit = Duration::seconds(r.i64("time_limit", 0));
      return m;
    }
    case MessageType::kSendSignal: {
      SendSignal m;
      m.job = JobId(r.u64("job"));
      m.signal = r.i32("signal", 1);
      if (!r.failed() && m.signal > 64) r.errors().fail(r.path_of("signal"), "must be 1-64, got " + std::to_string(m.signal));
      m.batch_only = r.boolean("batch_only");
      return m;
    }
    default: break;
  }
  return MetricsQuery{};
}

}  // namespace fairway::wire::detail
