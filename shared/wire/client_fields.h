// The field lists of the client messages (queries, job and node control, batch submission):
// optional fields left out when unset, every field checked when read.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "shared/wire/field_list.h"
#include "shared/wire/job_fields.h"
#include "shared/wire/job_view_fields.h"

namespace fairway::wire::detail {

// A reason's uid: any 32-bit value.
struct ReasonUid {
  static void put(Packer& pk, const std::optional<std::uint32_t>& v) {
    detail::put(pk, static_cast<std::int64_t>(*v));
  }
  static std::optional<std::uint32_t> read(MapReader& r, std::string_view key, const Rule&) {
    const std::int64_t uid = r.i64(key);
    if (r.failed()) return std::nullopt;
    if (uid < 0 || uid > 0xffffffffLL) {
      r.errors().fail(r.path_of(key), "must be a uid (0 to 4294967295), got " + std::to_string(uid));
      return std::nullopt;
    }
    return static_cast<std::uint32_t>(uid);
  }
};

// A page's size: 0 (all) to the largest int32.
struct PageLimit {
  static void put(Packer& pk, std::int32_t v) { detail::put(pk, v); }
  static std::int32_t read(MapReader& r, std::string_view key, const Rule&) {
    const std::int64_t limit = r.i64(key);
    if (!r.failed() && (limit < 0 || limit > std::numeric_limits<std::int32_t>::max())) {
      r.errors().fail(r.path_of(key), "out of range: " + std::to_string(limit));
    }
    return static_cast<std::int32_t>(limit);
  }
};

template <class V, FieldsOf<NodeView> M>
void fields(V& v, M& n) {
  v.field("name", n.name);
  v.field("state", n.state);
  v.field("partitions", n.partitions);
  v.field("sockets", n.sockets, kCount);
  v.field("cores", n.cores, kCount);
  v.field("threads_per_core", n.threads_per_core, kCount);
  v.field("gpus", n.gpus, kCount);
  v.field("gpu_types", n.gpu_types);
  v.field("cores_used", n.cores_used, kCount);
  v.field("gpus_used", n.gpus_used, kCount);
  v.field("memory_mb", n.memory_mb, kCount);
  v.field("memory_used_mb", n.memory_used_mb, kCount);
  v.field("last_heartbeat", n.last_heartbeat);
  v.field("reason", n.reason);
  v.field("reason_user", n.reason_user, kWhenSet);
  v.field("reason_uid", n.reason_uid, {}, ReasonUid{});
  v.field("reason_time", n.reason_time);
  v.field("jobs", n.jobs);  // a reply: the jobs running on a node
  v.field("enforcement", n.enforcement, kWhenSet);
  v.field("features", n.features, kWhenSet);
}

template <class V, FieldsOf<NodeQuery> M>
void fields(V& v, M& m) {
  v.field("nodes", m.nodes, {.max_entries = kMaxNamesPerRequest});
}

template <class V, FieldsOf<NodeQueryReply> M>
void fields(V& v, M& m) {
  v.field("nodes", m.nodes);
}

// Paging keys came after the first release: absent means the whole answer, from the start.
template <class V, FieldsOf<JobQuery> M>
void fields(V& v, M& m) {
  v.field("expand_arrays", m.expand_arrays, kWhenSet);
  v.field("with_steps", m.with_steps, kWhenSet);
  v.field("jobs", m.jobs, {.max_entries = kMaxIdsPerRequest});
  v.field("user", m.user);
  v.field("partition", m.partition);
  v.field("states", m.states, {.max_entries = kMaxStatesPerFilter});
  v.field("include_finished", m.include_finished);
  v.field("after", m.after, kDefaulted);
  v.field("limit", m.limit, kDefaulted, PageLimit{});
  v.field("from_store", m.from_store, kDefaulted);
  v.field("account", m.account, kDefaulted);
  v.field("ended_after", m.ended_after);
  v.field("ended_before", m.ended_before);
}

template <class V, FieldsOf<JobQueryReply> M>
void fields(V& v, M& m) {
  v.field("now", m.now);
  v.field("jobs", m.jobs);
  v.field("more", m.more, kDefaulted);
  v.field("total", m.total, kDefaulted);
}

inline void check_fields(MapReader& r, JobQueryReply& m) {
  if (!r.has("total")) m.total = m.jobs.size();  // an older coordinator's: one page, all of it
}

// Only a signal action carries its signal (cancel --signal), only an allocation's end its outcome.
template <class V, FieldsOf<JobControl> M>
void fields(V& v, M& m) {
  v.field("action", m.action, kCount);
  v.field("jobs", m.jobs, {.max_entries = kMaxIdsPerRequest});
  v.together(!m.task_arrays.empty(), [&](auto& w) {
    w.field("task_arrays", m.task_arrays, {.max_entries = kMaxIdsPerRequest});
    w.field("task_indices", m.task_indices, {.min = 0, .max_entries = kMaxIdsPerRequest});
  });
  v.field("user", m.user);
  v.when(m.action == JobAction::kSignal, [&](auto& w) {
    w.field("signal", m.signal, {.min = 1});
    w.field("batch_only", m.batch_only, kDefaulted);
  });
  v.when(m.action == JobAction::kEndAllocation, [&](auto& w) {
    w.field("exit_code", m.exit_code, kCount);
    w.field("signal", m.signal, kCount);
  });
}

inline void check_fields(MapReader& r, JobControl& m) {
  const auto fail = [&](std::string_view key, const std::string& what) {
    r.errors().fail(r.path_of(key), what);
  };
  if (m.task_arrays.size() != m.task_indices.size()) {
    fail("task_indices", "has " + std::to_string(m.task_indices.size()) + " entries for " +
                             std::to_string(m.task_arrays.size()) + " task_arrays");
  }
  if (m.action == JobAction::kSignal && m.signal > 64)
    fail("signal", "must be 1-64, got " + std::to_string(m.signal));
  if (m.action == JobAction::kEndAllocation) {
    if (m.exit_code > 255) fail("exit_code", "must be 0-255, got " + std::to_string(m.exit_code));
    if (m.signal > 64) fail("signal", "must be 0-64, got " + std::to_string(m.signal));
  }
}

// The code is absent from an older coordinator's reply: an error of no particular kind.
template <class V, FieldsOf<JobControlResult> M>
void fields(V& v, M& c) {
  v.field("job", c.job);
  v.field("ok", c.ok);
  v.field("message", c.message);
  v.field("code", c.code, kDefaulted);
}

template <class V, FieldsOf<JobControlReply> M>
void fields(V& v, M& m) {
  v.field("results", m.results);
}

template <class V, FieldsOf<NodeControl> M>
void fields(V& v, M& m) {
  v.field("action", m.action, kCount);
  v.field("nodes", m.nodes, {.max_entries = kMaxNamesPerRequest});
  v.field("reason", m.reason);
  v.field("user", m.user);
}

template <class V, FieldsOf<NodeControlResult> M>
void fields(V& v, M& c) {
  v.field("node", c.node);
  v.field("ok", c.ok);
  v.field("message", c.message);
}

template <class V, FieldsOf<NodeControlReply> M>
void fields(V& v, M& m) {
  v.field("results", m.results);
}

template <class V, FieldsOf<SubmitBatch> M>
void fields(V& v, M& m) {
  v.field("requests", m.requests, {.max_entries = kMaxSubmitsPerBatch});
}

template <class V, FieldsOf<SubmitResult> M>
void fields(V& v, M& s) {
  v.field("job", s.job);
  v.field("error", s.error);
}

template <class V, FieldsOf<SubmitBatchReply> M>
void fields(V& v, M& m) {
  v.field("results", m.results);
}

}  // namespace fairway::wire::detail
