// The field lists a job's messages share, flat in the enclosing map: the program, the task
// layout and the --signal warning (LaunchJob and SubmitRequest both carry them).
#pragma once

#include <cstdint>
#include <string>

#include "shared/wire/envelope.h"
#include "shared/wire/field_list.h"

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
    if (!r.failed() && (v < 0 || v > 64)) r.errors().fail(r.path_of(key), "not a signal: " + std::to_string(v));
    return v;
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

}  // namespace fairway::wire::detail
