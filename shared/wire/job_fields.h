// The field list of a SubmitRequest (a message, an element of SubmitBatch), and the parts
// LaunchJob shares with it flat in its map: the program, the task layout and the warning.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "shared/wire/envelope.h"
#include "shared/wire/field_list.h"
#include "shared/wire/request_limits.h"

namespace fairway::wire::detail {

// An integer that must not be negative ("negative: -3").
template <class T = std::int32_t>
struct NonNegative {
  static void put(Packer& pk, T v) { detail::put(pk, v); }
  static T read(MapReader& r, std::string_view key, const Rule& rule) {
    const T v = Codec<T>::read(r, key, rule);
    if (!r.failed() && v < 0) r.errors().fail(r.path_of(key), "negative: " + std::to_string(v));
    return v;
  }
};

// A signal number, 0 (none) to 64.
struct SignalNumber {
  static void put(Packer& pk, std::int32_t v) { detail::put(pk, v); }
  static std::int32_t read(MapReader& r, std::string_view key, const Rule& rule) {
    const std::int32_t v = Codec<std::int32_t>::read(r, key, rule);
    if (!r.failed() && (v < 0 || v > 64))
      r.errors().fail(r.path_of(key), "not a signal: " + std::to_string(v));
    return v;
  }
};

// sbatch --mail-type's events, a set of bits.
struct MailEvents {
  static void put(Packer& pk, std::uint8_t v) { detail::put(pk, static_cast<std::int32_t>(v)); }
  static std::uint8_t read(MapReader& r, std::string_view key, const Rule& rule) {
    const std::int32_t mail = Codec<std::int32_t>::read(r, key, rule);
    if (!r.failed() && (mail < 0 || mail > 255)) {
      r.errors().fail(r.path_of(key), "not a set of mail events: " + std::to_string(mail));
    }
    return static_cast<std::uint8_t>(mail & 255);
  }
};

// --array's text ("1-10%2"); the coordinator holds indices to its own limits.max_array_size,
// this bounds the text.
struct ArrayText {
  static void put(Packer& pk, const ArraySpec& v) { detail::put(pk, std::string_view(format_array_spec(v))); }
  static ArraySpec read(MapReader& r, std::string_view key, const Rule& rule) {
    const std::string text = r.str(key, rule.max_bytes);
    if (r.failed()) return {};
    auto a = parse_array_spec(text, kMaxArrayIndex);
    if (!a) {
      r.errors().fail(r.path_of(key), a.error().message);
      return {};
    }
    return std::move(*a);
  }
};

template <class V, FieldsOf<JobProgram> M>
void fields(V& v, M& p) {
  v.field("script", p.script, {.max_bytes = kMaxFrameBytes});  // a script may be as large as a frame
  v.field("argv", p.argv);
  v.field("working_dir", p.working_dir);
  v.field("env", p.env);
  v.field("stdout_path", p.stdout_path);
  v.field("stderr_path", p.stderr_path);
  v.field("open_append", p.open_append, kDefaulted);
}

// Defaulted: requests stored before task layouts were sent have none (all "not given").
template <class V, FieldsOf<TaskLayout> M>
void fields(V& v, M& t) {
  v.field("ntasks", t.ntasks, kDefaulted, NonNegative<>{});
  v.field("cpus_per_task", t.cpus_per_task, kDefaulted, NonNegative<>{});
  v.field("ntasks_per_node", t.ntasks_per_node, kDefaulted, NonNegative<>{});
}

// --signal's warning; absent in older requests (none).
template <class V, class I, class B>
void warning_fields(V& v, I& signal, I& before, B& batch_only) {
  v.field("warn_signal", signal, kDefaulted, SignalNumber{});
  v.field("warn_before", before, kDefaulted, NonNegative<>{});
  v.field("warn_batch_only", batch_only, kDefaulted);
}

// The groups below are runs of fields that the store's record of a request
// (coordinator/daemon/stored_request.cpp) lists in this same order too: it walks them with its
// own visitor, which keeps its presence (every key, nil when unset) and bounds.

// What the job asks for and where: its account, partition, QOS and resources.
template <class V, FieldsOf<JobSpec> M>
void request_fields(V& v, M& s) {
  auto& res = s.resources;
  v.field("account", s.account);
  v.field("partition", s.partition);
  v.field("qos", s.qos);
  v.field("nodes", res.nodes, kCount);
  v.field("cores", res.cores, kCount);
  v.field("gpus", res.gpus, kCount);
  v.field("gpu_type", res.gpu_type);
}

template <class V, FieldsOf<JobSpec> M>
void flag_fields(V& v, M& s) {
  v.field("requeue", s.requeue);
  v.field("interactive", s.interactive);
  v.field("hold", s.hold);
}

// --comment, --reservation and --dependency; absent in older requests.
template <class V, FieldsOf<JobSpec> M>
void dependency_fields(V& v, M& s) {
  v.field("comment", s.comment, kDefaulted);
  v.field("reservation", s.reservation, kDefaulted);
  v.field("dependencies", s.dependencies, kDefaulted);
  v.field("dependency_any", s.dependency_any, kDefaulted);
  v.field("kill_on_invalid_dep", s.kill_on_invalid_dep, kDefaulted);
}

// --exclusive, -w, -x, -C, --signal and --mail-*; absent in older requests.
template <class V, FieldsOf<JobSpec> M>
void node_and_notice_fields(V& v, M& s) {
  v.field("exclusive", s.exclusive, kDefaulted);
  v.field("only_nodes", s.only_nodes, {.presence = Presence::kDefaulted, .max_entries = kMaxNamesPerRequest});
  v.field("excluded_nodes", s.excluded_nodes,
          {.presence = Presence::kDefaulted, .max_entries = kMaxNamesPerRequest});
  v.field("constraint", s.constraint, kDefaulted);
  warning_fields(v, s.warn_signal, s.warn_before_s, s.warn_batch_only);
  v.field("mail_events", s.mail_events, kDefaulted, MailEvents{});
  v.field("mail_user", s.mail_user, {.presence = Presence::kDefaulted, .max_bytes = 254});
}

// Fields added after the first release are defaulted: older peers and stored rows lack them.
// GpuAsk, flat in the request's map; sent only when the job asked for GPUs per something.
template <class V, class A>
void gpu_ask_fields(V& v, A& a) {
  v.field("gpu_per", a.per, kWhenSet);
  v.field("gpu_asked", a.count, kWhenSet, NonNegative<>{});
  v.field("cpus_per_gpu", a.cpus_per_gpu, kWhenSet, NonNegative<>{});
  v.field("mem_per_gpu_mb", a.mem_per_gpu_mb, kWhenSet, NonNegative<std::int64_t>{});
}

template <class V, FieldsOf<SubmitRequest> M>
void fields(V& v, M& m) {
  auto& s = m.spec;
  auto& res = s.resources;
  v.field("array", s.array, kWhenSet, ArrayText{});
  v.together(s.is_array_task(), [&](auto& w) {
    w.field("array_job", s.array_job);
    w.field("array_task", s.array_task, kCount);
  });
  v.field("test_only", m.test_only, kWhenSet);
  v.field("client_token", m.client_token);
  v.field("name", s.name);
  v.field("user", s.user);
  request_fields(v, s);
  v.field("time_limit", s.time_limit, kCount);
  flag_fields(v, s);
  fields(v, s.tasks);
  dependency_fields(v, s);
  v.field("nice", s.nice, kDefaulted);
  v.field("mem_per_node_mb", res.memory_per_node_mb, kDefaulted, NonNegative<std::int64_t>{});
  v.field("mem_per_cpu_mb", res.memory_per_cpu_mb, kDefaulted, NonNegative<std::int64_t>{});
  node_and_notice_fields(v, s);
  gpu_ask_fields(v, s.gpu_ask);
  v.field("begin", s.begin);
  v.field("uid", s.uid);
  v.field("gid", s.gid);
  fields(v, m.program);
}

}  // namespace fairway::wire::detail
