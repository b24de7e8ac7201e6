// Payloads of a job step's messages (step_messages.h): maps with string keys, every field
// checked when read. A step's request comes from a user and its stream from a process the
// user owns: both are hostile input, bounded in count and size here.
#include <algorithm>

#include "shared/wire/codec_parts.h"

namespace fairway::wire::detail {
namespace {

// A step spans at most this many nodes and runs at most this many tasks: far above any
// machine, far below what would let a frame make a reader allocate without bound.
constexpr std::int32_t kMaxStepNodes = 100000;
constexpr std::int32_t kMaxStepTasks = 10000000;
constexpr std::size_t kMaxKeyBytes = 256;
constexpr std::size_t kMaxAddressBytes = 512;

void check_range(MapReader& r, std::string_view key, std::int64_t value, std::int64_t lo, std::int64_t hi) {
  if (!r.failed() && (value < lo || value > hi)) {
    r.errors().fail(r.path_of(key), "must be " + std::to_string(lo) + "-" + std::to_string(hi) + ", got " +
                                        std::to_string(value));
  }
}

// Node names and their task counts come together, one count per node, each at least 1.
// (Whether a request names a command and nodes is its receiver's to judge.)
void check_layout(MapReader& r, const std::vector<std::string>& nodes, const std::vector<std::int32_t>& tasks) {
  if (r.failed()) return;
  if (nodes.size() > static_cast<std::size_t>(kMaxStepNodes)) {
    r.errors().fail(r.path_of("nodes"), "must name at most " + std::to_string(kMaxStepNodes) + " nodes, got " +
                                            std::to_string(nodes.size()));
  } else if (tasks.size() != nodes.size()) {
    r.errors().fail(r.path_of("tasks_per_node"), "has " + std::to_string(tasks.size()) + " entries for " +
                                                     std::to_string(nodes.size()) + " nodes");
  } else {
    for (std::int32_t t : tasks) {
      if (t < 1 || t > kMaxStepTasks) {
        r.errors().fail(r.path_of("tasks_per_node"), "each node runs 1-" + std::to_string(kMaxStepTasks) +
                                                         " tasks, got " + std::to_string(t));
        return;
      }
    }
  }
}

// What a step's request and its launches both carry: the command, where it runs, and how
// its relays reach the client.
template <typename M>
void read_command_and_stream(MapReader& r, M& m) {
  m.argv = r.str_list("argv");
  m.env = r.env("env");
  m.working_dir = r.str("working_dir");
  m.io_address = r.str("io_address", kMaxAddressBytes);
  m.io_key = r.str("io_key", kMaxKeyBytes);
  m.pty = r.opt_boolean("pty").value_or(false);
  m.cpu_bind = r.opt_str("cpu_bind", kMaxAddressBytes);
  m.distribution = r.opt_str("distribution", kMaxAddressBytes);
  m.mpi = r.opt_str("mpi", kMaxAddressBytes);
}

template <typename M>
void put_command_and_stream(Packer& pk, const M& m) {
  if (m.pty) put_kv(pk, "pty", true);
  put_kv(pk, "argv", m.argv);
  put_kv(pk, "env", m.env);
  put_kv(pk, "working_dir", std::string_view(m.working_dir));
  put_kv(pk, "io_address", std::string_view(m.io_address));
  put_kv(pk, "io_key", std::string_view(m.io_key));
  if (!m.cpu_bind.empty()) put_kv(pk, "cpu_bind", std::string_view(m.cpu_bind));
  if (!m.distribution.empty()) put_kv(pk, "distribution", std::string_view(m.distribution));
  if (!m.mpi.empty()) put_kv(pk, "mpi", std::string_view(m.mpi));
}
constexpr std::uint32_t kCommandAndStreamKeys = 5;  // and those set of the optional ones

template <typename M>
std::uint32_t optional_stream_keys(const M& m) {
  return (m.pty ? 1 : 0) + (m.cpu_bind.empty() ? 0 : 1) + (m.distribution.empty() ? 0 : 1) + (m.mpi.empty() ? 0 : 1);
}

StepRequest read_step_request(MapReader& r) {
  StepRequest m;
  m.job = JobId(r.u64("job"));
  read_command_and_stream(r, m);
  m.ntasks = r.i32("ntasks", 0);
  check_range(r, "ntasks", m.ntasks, 0, kMaxStepTasks);
  m.nodes = r.i32("nodes", 0);
  check_range(r, "nodes", m.nodes, 0, kMaxStepNodes);
  if (r.has("nodelist")) m.nodelist = r.str_list("nodelist");
  if (r.has("exclude")) m.exclude = r.str_list("exclude");
  for (const auto* names : {&m.nodelist, &m.exclude}) {
    if (!r.failed() && names->size() > static_cast<std::size_t>(kMaxStepNodes)) {
      r.errors().fail(r.path_of(names == &m.nodelist ? "nodelist" : "exclude"),
                      "must name at most " + std::to_string(kMaxStepNodes) + " nodes");
    }
  }
  m.ntasks_per_node = r.opt_i32("ntasks_per_node").value_or(0);
  check_range(r, "ntasks_per_node", m.ntasks_per_node, 0, kMaxStepTasks);
  m.cpus_per_task = r.opt_i32("cpus_per_task").value_or(0);
  check_range(r, "cpus_per_task", m.cpus_per_task, 0, kMaxStepTasks);
  m.exclusive = r.opt_boolean("exclusive").value_or(false);
  return m;
}

StepReply read_step_reply(MapReader& r) {
  StepReply m;
  m.job = JobId(r.u64("job"));
  m.step = r.i32("step", 0);
  m.nodes = r.str_list("nodes");
  m.tasks_per_node = r.i32_list("tasks_per_node", 1);
  check_layout(r, m.nodes, m.tasks_per_node);
  return m;
}

LaunchStep read_launch_step(MapReader& r) {
  LaunchStep m;
  m.job = JobId(r.u64("job"));
  m.step = r.i32("step", 0);
  m.user = r.str("user");
  m.uid = read_id(r, "uid");
  m.gid = read_id(r, "gid");
  read_command_and_stream(r, m);
  m.nodes = r.str_list("nodes");
  m.tasks_per_node = r.i32_list("tasks_per_node", 1);
  check_layout(r, m.nodes, m.tasks_per_node);
  m.node_index = r.i32("node_index", 0);
  check_range(r, "node_index", m.node_index, 0, std::max<std::int64_t>(0, static_cast<std::int64_t>(m.nodes.size()) - 1));
  m.cpus_per_task = r.i32("cpus_per_task", 1);
  if (r.has("cores")) m.cores = r.i32_list("cores", 0, static_cast<std::size_t>(kMaxStepTasks));
  return m;
}

StepIo read_step_io(MapReader& r) {
  StepIo m;
  const std::int32_t kind = r.i32("kind", 1);
  check_range(r, "kind", kind, 1, kLastStepIoKind);
  m.kind = static_cast<StepIoKind>(kind);
  m.node_index = r.i32("node_index", 0);
  m.rank = r.i32("rank", -1);
  m.value = r.i64("value");
  m.data = r.str("data");
  return m;
}

StepEnded read_step_ended(MapReader& r) {
  StepEnded m;
  m.job = JobId(r.u64("job"));
  m.step = r.i32("step", 0);
  m.exit_code = r.i32("exit_code", 0);
  check_range(r, "exit_code", m.exit_code, 0, 255);
  m.signal = r.i32("signal", 0);
  check_range(r, "signal", m.signal, 0, 64);
  // Absent from older clients; 2^53 bounds what a double in any consumer holds exactly.
  constexpr std::int64_t kMaxUsage = std::int64_t{1} << 53;
  m.max_rss_kb = r.opt_i64("max_rss_kb");
  if (m.max_rss_kb) check_range(r, "max_rss_kb", *m.max_rss_kb, 0, kMaxUsage);
  m.cpu_us = r.opt_i64("cpu_us");
  if (m.cpu_us) check_range(r, "cpu_us", *m.cpu_us, 0, kMaxUsage);
  return m;
}

}  // namespace

void encode_payload(Packer& pk, const StepRequest& m) {
  pk.pack_map(3 + kCommandAndStreamKeys + optional_stream_keys(m) + (m.nodelist.empty() ? 0 : 1) +
              (m.exclude.empty() ? 0 : 1) + (m.ntasks_per_node != 0 ? 1 : 0) + (m.cpus_per_task != 0 ? 1 : 0) +
              (m.exclusive ? 1 : 0));
  put_kv(pk, "job", m.job.value());
  put_command_and_stream(pk, m);
  put_kv(pk, "ntasks", m.ntasks);
  put_kv(pk, "nodes", m.nodes);
  if (!m.nodelist.empty()) put_kv(pk, "nodelist", m.nodelist);
  if (!m.exclude.empty()) put_kv(pk, "exclude", m.exclude);
  if (m.ntasks_per_node != 0) put_kv(pk, "ntasks_per_node", m.ntasks_per_node);
  if (m.cpus_per_task != 0) put_kv(pk, "cpus_per_task", m.cpus_per_task);
  if (m.exclusive) put_kv(pk, "exclusive", true);
}

void encode_payload(Packer& pk, const StepReply& m) {
  pk.pack_map(4);
  put_kv(pk, "job", m.job.value());
  put_kv(pk, "step", m.step);
  put_kv(pk, "nodes", m.nodes);
  put_kv(pk, "tasks_per_node", m.tasks_per_node);
}

void encode_payload(Packer& pk, const LaunchStep& m) {
  pk.pack_map(7 + kCommandAndStreamKeys + (m.uid ? 1 : 0) + (m.gid ? 1 : 0) + optional_stream_keys(m) +
              (m.cores.empty() ? 0 : 1));
  put_kv(pk, "job", m.job.value());
  put_kv(pk, "step", m.step);
  put_kv(pk, "user", std::string_view(m.user));
  if (m.uid) put_kv(pk, "uid", static_cast<std::int64_t>(*m.uid));
  if (m.gid) put_kv(pk, "gid", static_cast<std::int64_t>(*m.gid));
  put_command_and_stream(pk, m);
  put_kv(pk, "nodes", m.nodes);
  put_kv(pk, "tasks_per_node", m.tasks_per_node);
  put_kv(pk, "node_index", m.node_index);
  put_kv(pk, "cpus_per_task", m.cpus_per_task);
  if (!m.cores.empty()) put_kv(pk, "cores", m.cores);
}

void encode_payload(Packer& pk, const StepIo& m) {
  pk.pack_map(5);
  put_kv(pk, "kind", static_cast<std::int32_t>(m.kind));
  put_kv(pk, "node_index", m.node_index);
  put_kv(pk, "rank", m.rank);
  put_kv(pk, "value", m.value);
  put_kv(pk, "data", std::string_view(m.data));
}

void encode_payload(Packer& pk, const StepEnded& m) {
  pk.pack_map(4 + (m.max_rss_kb ? 1 : 0) + (m.cpu_us ? 1 : 0));
  put_kv(pk, "job", m.job.value());
  put_kv(pk, "step", m.step);
  put_kv(pk, "exit_code", m.exit_code);
  put_kv(pk, "signal", m.signal);
  if (m.max_rss_kb) put_kv(pk, "max_rss_kb", *m.max_rss_kb);
  if (m.cpu_us) put_kv(pk, "cpu_us", *m.cpu_us);
}

Message read_step_payload(MessageType type, MapReader& r) {
  switch (type) {
    case MessageType::kStepEnded: return read_step_ended(r);
    case MessageType::kStepRequest: return read_step_request(r);
    case MessageType::kStepReply: return read_step_reply(r);
    case MessageType::kLaunchStep: return read_launch_step(r);
    default: break;
  }
  return read_step_io(r);
}

}  // namespace fairway::wire::detail
