// Payloads of the client messages (queries, job control, batch submission): maps with
// string keys, optional fields left out when unset, every field checked when read.
#include <cassert>
#include <utility>

#include "shared/wire/codec_parts.h"

namespace fairway::wire::detail {
namespace {

void put_states(Packer& pk, const std::vector<JobState>& states) {
  pk.pack_array(size32(states.size()));
  for (JobState s : states) put(pk, to_string(s));
}

// Reads `key` as job state names; an unknown name is an error naming it.
std::vector<JobState> read_states(MapReader& r, std::string_view key) {
  std::vector<JobState> out;
  const std::vector<std::string> names = r.str_list(key, kMaxStatesPerFilter);
  for (std::size_t i = 0; i < names.size() && !r.failed(); ++i) {
    if (auto s = job_state_from_string(names[i])) {
      out.push_back(*s);
    } else {
      r.errors().fail(item_path(r, key, i),
                      "unknown job state \"" + names[i].substr(0, 64) + "\"");
    }
  }
  return out;
}

std::vector<JobId> read_job_ids(MapReader& r, std::string_view key, std::size_t max_entries = kMaxIdsPerRequest) {
  std::vector<JobId> out;
  for (std::uint64_t v : r.u64_list(key, max_entries)) out.emplace_back(v);
  return out;
}

// ---- NodeView

void put_node_view(Packer& pk, const NodeView& n) {
  pk.pack_map(14 + (n.last_heartbeat ? 1 : 0) + (n.enforcement.empty() ? 0 : 1) + (n.reason_user.empty() ? 0 : 1) +
              (n.reason_uid ? 1 : 0) + (n.reason_time ? 1 : 0) + (n.features.empty() ? 0 : 1));
  put_kv(pk, "name", std::string_view(n.name));
  put_kv(pk, "state", std::string_view(n.state));
  put_kv(pk, "partitions", n.partitions);
  put_kv(pk, "sockets", n.sockets);
  put_kv(pk, "cores", n.cores);
  put_kv(pk, "threads_per_core", n.threads_per_core);
  put_kv(pk, "gpus", n.gpus);
  put_kv(pk, "gpu_types", n.gpu_types);
  put_kv(pk, "cores_used", n.cores_used);
  put_kv(pk, "gpus_used", n.gpus_used);
  put_kv(pk, "memory_mb", n.memory_mb);
  put_kv(pk, "memory_used_mb", n.memory_used_mb);
  put_opt_time(pk, "last_heartbeat", n.last_heartbeat);
  put_kv(pk, "reason", std::string_view(n.reason));
  if (!n.reason_user.empty()) put_kv(pk, "reason_user", std::string_view(n.reason_user));
  if (n.reason_uid) put_kv(pk, "reason_uid", static_cast<std::int64_t>(*n.reason_uid));
  put_opt_time(pk, "reason_time", n.reason_time);
  put_kv(pk, "jobs", n.jobs);
  if (!n.enforcement.empty()) put_kv(pk, "enforcement", std::string_view(n.enforcement));
  if (!n.features.empty()) put_kv(pk, "features", n.features);
}

NodeView read_node_view(MapReader& r) {
  NodeView n;
  n.name = r.str("name");
  n.state = r.str("state");
  n.partitions = r.str_list("partitions");
  n.sockets = r.i32("sockets", 0);
  n.cores = r.i32("cores", 0);
  n.threads_per_core = r.i32("threads_per_core", 0);
  n.gpus = r.i32("gpus", 0);
  n.gpu_types = r.str_list("gpu_types");
  n.cores_used = r.i32("cores_used", 0);
  n.gpus_used = r.i32("gpus_used", 0);
  n.memory_mb = r.i64("memory_mb", 0);
  n.memory_used_mb = r.i64("memory_used_mb", 0);
  n.last_heartbeat = read_opt_time(r, "last_heartbeat");
  n.reason = r.str("reason");
  n.reason_user = r.opt_str("reason_user");
  if (auto uid = r.opt_i64("reason_uid")) {
    if (*uid < 0 || *uid > 0xffffffffLL) {
      r.errors().fail(r.path_of("reason_uid"), "must be a uid (0 to 4294967295), got " + std::to_string(*uid));
    } else {
      n.reason_uid = static_cast<std::uint32_t>(*uid);
    }
  }
  n.reason_time = read_opt_time(r, "reason_time");
  n.jobs = read_job_ids(r, "jobs", kMaxListEntries);  // a reply: the jobs running on a node
  n.enforcement = r.opt_str("enforcement");
  if (r.has("features")) n.features = r.str_list("features");
  return n;
}


JobQuery read_job_query(MapReader& r) {
  JobQuery m;
  m.jobs = read_job_ids(r, "jobs");
  m.user = r.str("user");
  m.partition = r.str("partition");
  m.states = read_states(r, "states");
  m.include_finished = r.boolean("include_finished");
  // Paging keys came after the first release: absent means the whole answer, from the start.
  m.after = JobId(r.opt_u64("after").value_or(0));
  const auto limit = r.opt_i64("limit");
  if (limit && (*limit < 0 || *limit > std::numeric_limits<std::int32_t>::max())) {
    r.errors().fail(r.path_of("limit"), "out of range: " + std::to_string(*limit));
  }
  m.limit = static_cast<std::int32_t>(limit.value_or(0));
  m.from_store = r.opt_boolean("from_store").value_or(false);
  m.account = r.opt_str("account");
  if (auto t = r.opt_i64("ended_after")) m.ended_after = Time::from_seconds(*t);
  if (auto t = r.opt_i64("ended_before")) m.ended_before = Time::from_seconds(*t);
  m.expand_arrays = r.opt_boolean("expand_arrays").value_or(false);
  m.with_steps = r.opt_boolean("with_steps").value_or(false);
  return m;
}

JobControl read_job_control(MapReader& r) {
  JobControl m;
  const std::int32_t action = r.i32("action", 0);
  if (!r.failed() && (action < static_cast<std::int32_t>(JobAction::kCancel) ||
                      action > static_cast<std::int32_t>(JobAction::kEndAllocation))) {
    r.errors().fail(r.path_of("action"), "unknown job action " + std::to_string(action));
  }
  if (!r.failed()) m.action = static_cast<JobAction>(action);
  m.jobs = read_job_ids(r, "jobs");
  if (r.has("task_arrays") || r.has("task_indices")) {
    m.task_arrays = read_job_ids(r, "task_arrays");
    m.task_indices = r.i32_list("task_indices", 0, kMaxIdsPerRequest);
    if (!r.failed() && m.task_arrays.size() != m.task_indices.size()) {
      r.errors().fail(r.path_of("task_indices"), "has " + std::to_string(m.task_indices.size()) +
                                                     " entries for " + std::to_string(m.task_arrays.size()) +
                                                     " task_arrays");
    }
  }
  m.user = r.str("user");
  // Came with cancel --signal, and only a signal action carries them.
  if (!r.failed() && m.action == JobAction::kSignal) {
    m.signal = r.i32("signal", 1);
    if (!r.failed() && m.signal > 64) r.errors().fail(r.path_of("signal"), "must be 1-64, got " + std::to_string(m.signal));
    m.batch_only = r.opt_boolean("batch_only").value_or(false);
  }
  if (!r.failed() && m.action == JobAction::kEndAllocation) {
    m.exit_code = r.i32("exit_code", 0);
    if (!r.failed() && m.exit_code > 255) r.errors().fail(r.path_of("exit_code"), "must be 0-255, got " + std::to_string(m.exit_code));
    m.signal = r.i32("signal", 0);
    if (!r.failed() && m.signal > 64) r.errors().fail(r.path_of("signal"), "must be 0-64, got " + std::to_string(m.signal));
  }
  return m;
}

JobControlResult read_control_result(MapReader& r) {
  JobControlResult c;
  c.job = JobId(r.u64("job"));
  c.ok = r.boolean("ok");
  c.message = r.str("message");
  // Absent from an older coordinator's reply: an error of no particular kind.
  const std::int32_t code = r.opt_i32("code").value_or(static_cast<std::int32_t>(ErrorCode::kInternal));
  if (!r.failed() && (code < 0 || code > static_cast<std::int32_t>(ErrorCode::kUnavailable))) {
    r.errors().fail(r.path_of("code"), "unknown error code " + std::to_string(code));
  }
  c.code = static_cast<ErrorCode>(code);
  return c;
}

NodeControl read_node_control(MapReader& r) {
  NodeControl m;
  const std::int32_t action = r.i32("action", 0);
  if (!r.failed() && action != static_cast<std::int32_t>(NodeAction::kDrain) &&
      action != static_cast<std::int32_t>(NodeAction::kResume)) {
    r.errors().fail(r.path_of("action"), "unknown node action " + std::to_string(action));
  }
  if (!r.failed()) m.action = static_cast<NodeAction>(action);
  m.nodes = r.str_list("nodes", kMaxNamesPerRequest);
  m.reason = r.str("reason");
  m.user = r.str("user");
  return m;
}

NodeControlResult read_node_control_result(MapReader& r) {
  NodeControlResult c;
  c.node = r.str("node");
  c.ok = r.boolean("ok");
  c.message = r.str("message");
  return c;
}

SubmitResult read_submit_result(MapReader& r) {
  SubmitResult s;
  if (auto id = r.opt_u64("job")) s.job = JobId(*id);
  s.error = r.str("error");
  return s;
}

}  // namespace

void encode_payload(Packer& pk, const JobQuery& m) {
  pk.pack_map(9 + (m.ended_after ? 1 : 0) + (m.ended_before ? 1 : 0) + (m.expand_arrays ? 1 : 0) +
              (m.with_steps ? 1 : 0));
  if (m.expand_arrays) put_kv(pk, "expand_arrays", true);
  if (m.with_steps) put_kv(pk, "with_steps", true);
  put_kv(pk, "jobs", m.jobs);
  put_kv(pk, "user", std::string_view(m.user));
  put_kv(pk, "partition", std::string_view(m.partition));
  put(pk, std::string_view("states"));
  put_states(pk, m.states);
  put_kv(pk, "include_finished", m.include_finished);
  put_kv(pk, "after", m.after.value());
  put_kv(pk, "limit", m.limit);
  put_kv(pk, "from_store", m.from_store);
  put_kv(pk, "account", std::string_view(m.account));
  if (m.ended_after) put_kv(pk, "ended_after", m.ended_after->seconds());
  if (m.ended_before) put_kv(pk, "ended_before", m.ended_before->seconds());
}

void encode_payload(Packer& pk, const JobQueryReply& m) {
  pk.pack_map(4);
  put_kv(pk, "now", m.now.seconds());
  put(pk, std::string_view("jobs"));
  pk.pack_array(size32(m.jobs.size()));
  for (const auto& j : m.jobs) put_job_view(pk, j);
  put_kv(pk, "more", m.more);
  put_kv(pk, "total", m.total);
}

void encode_payload(Packer& pk, const JobControl& m) {
  const bool signal = m.action == JobAction::kSignal;
  const bool outcome = m.action == JobAction::kEndAllocation;
  const bool tasks = !m.task_arrays.empty();
  pk.pack_map((signal || outcome ? 5 : 3) + (tasks ? 2 : 0));
  put_kv(pk, "action", static_cast<std::int32_t>(m.action));
  put_kv(pk, "jobs", m.jobs);
  if (tasks) {
    put_kv(pk, "task_arrays", m.task_arrays);
    put_kv(pk, "task_indices", m.task_indices);
  }
  put_kv(pk, "user", std::string_view(m.user));
  if (signal) {
    put_kv(pk, "signal", m.signal);
    put_kv(pk, "batch_only", m.batch_only);
  }
  if (outcome) {
    put_kv(pk, "exit_code", m.exit_code);
    put_kv(pk, "signal", m.signal);
  }
}

void encode_payload(Packer& pk, const JobControlReply& m) {
  pk.pack_map(1);
  put(pk, std::string_view("results"));
  pk.pack_array(size32(m.results.size()));
  for (const auto& c : m.results) {
    pk.pack_map(4);
    put_kv(pk, "job", c.job.value());
    put_kv(pk, "ok", c.ok);
    put_kv(pk, "message", std::string_view(c.message));
    put_kv(pk, "code", static_cast<std::int32_t>(c.code));
  }
}

void encode_payload(Packer& pk, const NodeControl& m) {
  pk.pack_map(4);
  put_kv(pk, "action", static_cast<std::int32_t>(m.action));
  put_kv(pk, "nodes", m.nodes);
  put_kv(pk, "reason", std::string_view(m.reason));
  put_kv(pk, "user", std::string_view(m.user));
}

void encode_payload(Packer& pk, const NodeControlReply& m) {
  pk.pack_map(1);
  put(pk, std::string_view("results"));
  pk.pack_array(size32(m.results.size()));
  for (const auto& c : m.results) {
    pk.pack_map(3);
    put_kv(pk, "node", std::string_view(c.node));
    put_kv(pk, "ok", c.ok);
    put_kv(pk, "message", std::string_view(c.message));
  }
}

void encode_payload(Packer& pk, const NodeQuery& m) {
  pk.pack_map(1);
  put_kv(pk, "nodes", m.nodes);
}

void encode_payload(Packer& pk, const NodeQueryReply& m) {
  pk.pack_map(1);
  put(pk, std::string_view("nodes"));
  pk.pack_array(size32(m.nodes.size()));
  for (const auto& n : m.nodes) put_node_view(pk, n);
}

void encode_payload(Packer& pk, const SubmitBatch& m) {
  pk.pack_map(1);
  put(pk, std::string_view("requests"));
  pk.pack_array(size32(m.requests.size()));
  for (const auto& s : m.requests) encode_submit_request(pk, s);
}

void encode_payload(Packer& pk, const SubmitBatchReply& m) {
  pk.pack_map(1);
  put(pk, std::string_view("results"));
  pk.pack_array(size32(m.results.size()));
  for (const auto& s : m.results) {
    pk.pack_map(s.job ? 2 : 1);
    if (s.job) put_kv(pk, "job", s.job->value());
    put_kv(pk, "error", std::string_view(s.error));
  }
}

Message read_client_payload(MessageType type, MapReader& r) {
  switch (type) {
    case MessageType::kJobQuery: return read_job_query(r);
    case MessageType::kJobQueryReply: {
      JobQueryReply m;
      m.now = Time::from_seconds(r.i64("now"));
      m.jobs = read_maps<JobView>(r, "jobs", read_job_view);
      m.more = r.opt_boolean("more").value_or(false);
      m.total = r.opt_u64("total").value_or(m.jobs.size());
      return m;
    }
    case MessageType::kJobControl: return read_job_control(r);
    case MessageType::kJobControlReply:
      return JobControlReply{read_maps<JobControlResult>(r, "results", read_control_result)};
    case MessageType::kNodeQuery: return NodeQuery{r.str_list("nodes", kMaxNamesPerRequest)};
    case MessageType::kNodeControl: return read_node_control(r);
    case MessageType::kNodeControlReply:
      return NodeControlReply{read_maps<NodeControlResult>(r, "results", read_node_control_result)};
    case MessageType::kNodeQueryReply:
      return NodeQueryReply{read_maps<NodeView>(r, "nodes", read_node_view)};
    case MessageType::kSubmitBatch:
      return SubmitBatch{read_maps<SubmitRequest>(r, "requests", read_submit_request, kMaxSubmitsPerBatch)};
    case MessageType::kSubmitBatchReply:
      return SubmitBatchReply{read_maps<SubmitResult>(r, "results", read_submit_result)};
    default: break;
  }
  assert(false && "read_client_payload: not a client message");
  return NodeQuery{};
}

}  // namespace fairway::wire::detail
