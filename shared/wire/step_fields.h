// The field lists of a job step's messages (step_messages.h). A step's request comes from a
// user and its stream from a process the user owns: both hostile, bounded in count and size.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "shared/wire/field_list.h"

namespace fairway::wire::detail {

// A step spans at most this many nodes and runs at most this many tasks: far above any
// machine, far below what would let a frame make a reader allocate without bound.
inline constexpr std::int32_t kMaxStepNodes = 100000;
inline constexpr std::int32_t kMaxStepTasks = 10000000;
inline constexpr std::size_t kMaxKeyBytes = 256;
inline constexpr std::size_t kMaxAddressBytes = 512;

inline void check_range(MapReader& r, std::string_view key, std::int64_t value, std::int64_t lo,
                        std::int64_t hi) {
  if (!r.failed() && (value < lo || value > hi)) {
    r.errors().fail(r.path_of(key), "must be " + std::to_string(lo) + "-" + std::to_string(hi) + ", got " +
                                        std::to_string(value));
  }
}

// Node names and their task counts come together, one count per node, each at least 1.
// (Whether a request names a command and nodes is its receiver's to judge.)
inline void check_layout(MapReader& r, const std::vector<std::string>& nodes,
                         const std::vector<std::int32_t>& tasks) {
  if (r.failed()) return;
  if (nodes.size() > static_cast<std::size_t>(kMaxStepNodes)) {
    r.errors().fail(r.path_of("nodes"), "must name at most " + std::to_string(kMaxStepNodes) +
                                            " nodes, got " + std::to_string(nodes.size()));
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

// A step's stream record kind, 1 to kLastStepIoKind.
struct StepIoKindCodec {
  static void put(Packer& pk, StepIoKind v) { detail::put(pk, static_cast<std::int32_t>(v)); }
  static StepIoKind read(MapReader& r, std::string_view key, const Rule&) {
    const std::int32_t kind = r.i32(key, 1);
    check_range(r, key, kind, 1, kLastStepIoKind);
    return static_cast<StepIoKind>(kind);
  }
};

// What a step's request and its launches both carry: the command, where it runs, and how
// its relays reach the client.
template <class V, class M>
void command_and_stream_fields(V& v, M& m) {
  v.field("pty", m.pty, kWhenSet);
  v.field("argv", m.argv);
  v.field("env", m.env);
  v.field("working_dir", m.working_dir);
  v.field("io_address", m.io_address, {.max_bytes = kMaxAddressBytes});
  v.field("io_key", m.io_key, {.max_bytes = kMaxKeyBytes});
  v.field("cpu_bind", m.cpu_bind, {.presence = Presence::kWhenSet, .max_bytes = kMaxAddressBytes});
  v.field("distribution", m.distribution, {.presence = Presence::kWhenSet, .max_bytes = kMaxAddressBytes});
  v.field("mpi", m.mpi, {.presence = Presence::kWhenSet, .max_bytes = kMaxAddressBytes});
}

template <class V, FieldsOf<StepRequest> M>
void fields(V& v, M& m) {
  v.field("job", m.job);
  command_and_stream_fields(v, m);
  v.field("ntasks", m.ntasks, kCount);
  v.field("nodes", m.nodes, kCount);
  v.field("nodelist", m.nodelist, kWhenSet);
  v.field("exclude", m.exclude, kWhenSet);
  v.field("ntasks_per_node", m.ntasks_per_node, kWhenSet);
  v.field("cpus_per_task", m.cpus_per_task, kWhenSet);
  v.field("exclusive", m.exclusive, kWhenSet);
}

inline void check_fields(MapReader& r, StepRequest& m) {
  check_range(r, "ntasks", m.ntasks, 0, kMaxStepTasks);
  check_range(r, "nodes", m.nodes, 0, kMaxStepNodes);
  for (const auto* names : {&m.nodelist, &m.exclude}) {
    if (!r.failed() && names->size() > static_cast<std::size_t>(kMaxStepNodes)) {
      r.errors().fail(r.path_of(names == &m.nodelist ? "nodelist" : "exclude"),
                      "must name at most " + std::to_string(kMaxStepNodes) + " nodes");
    }
  }
  check_range(r, "ntasks_per_node", m.ntasks_per_node, 0, kMaxStepTasks);
  check_range(r, "cpus_per_task", m.cpus_per_task, 0, kMaxStepTasks);
}

template <class V, FieldsOf<StepReply> M>
void fields(V& v, M& m) {
  v.field("job", m.job);
  v.field("step", m.step, kCount);
  v.field("nodes", m.nodes);
  v.field("tasks_per_node", m.tasks_per_node, {.min = 1});
}

inline void check_fields(MapReader& r, StepReply& m) {
  check_layout(r, m.nodes, m.tasks_per_node);
}

template <class V, FieldsOf<LaunchStep> M>
void fields(V& v, M& m) {
  v.field("job", m.job);
  v.field("step", m.step, kCount);
  v.field("user", m.user);
  v.field("uid", m.uid);
  v.field("gid", m.gid);
  command_and_stream_fields(v, m);
  v.field("nodes", m.nodes);
  v.field("tasks_per_node", m.tasks_per_node, {.min = 1});
  v.field("node_index", m.node_index, kCount);
  v.field("cpus_per_task", m.cpus_per_task, {.min = 1});
  v.field("cores", m.cores, {.presence = Presence::kWhenSet, .min = 0, .max_entries = kMaxStepTasks});
}

inline void check_fields(MapReader& r, LaunchStep& m) {
  check_layout(r, m.nodes, m.tasks_per_node);
  check_range(r, "node_index", m.node_index, 0,
              std::max<std::int64_t>(0, static_cast<std::int64_t>(m.nodes.size()) - 1));
}

template <class V, FieldsOf<StepIo> M>
void fields(V& v, M& m) {
  v.field("kind", m.kind, {}, StepIoKindCodec{});
  v.field("node_index", m.node_index, kCount);
  v.field("rank", m.rank, {.min = -1});
  v.field("value", m.value);
  v.field("data", m.data);
}

// Usage is absent from older clients; 2^53 bounds what a double in any consumer holds exactly.
template <class V, FieldsOf<StepEnded> M>
void fields(V& v, M& m) {
  v.field("job", m.job);
  v.field("step", m.step, kCount);
  v.field("exit_code", m.exit_code, kCount);
  v.field("signal", m.signal, kCount);
  v.field("max_rss_kb", m.max_rss_kb);
  v.field("cpu_us", m.cpu_us);
}

inline void check_fields(MapReader& r, StepEnded& m) {
  constexpr std::int64_t kMaxUsage = std::int64_t{1} << 53;
  check_range(r, "exit_code", m.exit_code, 0, 255);
  check_range(r, "signal", m.signal, 0, 64);
  if (m.max_rss_kb) check_range(r, "max_rss_kb", *m.max_rss_kb, 0, kMaxUsage);
  if (m.cpu_us) check_range(r, "cpu_us", *m.cpu_us, 0, kMaxUsage);
}

}  // namespace fairway::wire::detail
