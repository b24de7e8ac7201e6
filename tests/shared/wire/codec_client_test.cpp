#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "shared/wire/codec.h"
#include "shared/wire/msgpack_include.h"
#include "wire_test_util.h"

namespace fairway::wire {
namespace {

using Packer = msgpack::packer<msgpack::sbuffer>;

// A step into a payload: a map key, or an index into an array (key empty).
struct Step {
  std::string key;
  std::size_t index = 0;
};
using KeyPath = std::vector<Step>;

std::string render(const std::string& type, const KeyPath& path) {
  std::string out = type;
  for (const Step& s : path) {
    out += s.key.empty() ? "[" + std::to_string(s.index) + "]" : "." + s.key;
  }
  return out;
}

// Every map key reachable in `o`, through nested maps and arrays.
void collect_keys(const msgpack::object& o, KeyPath& at, std::vector<KeyPath>& out) {
  if (o.type == msgpack::type::MAP) {
    for (std::uint32_t i = 0; i < o.via.map.size; ++i) {
      at.push_back({o.via.map.ptr[i].key.as<std::string>(), 0});
      out.push_back(at);
      collect_keys(o.via.map.ptr[i].val, at, out);
      at.pop_back();
    }
  } else if (o.type == msgpack::type::ARRAY) {
    for (std::uint32_t i = 0; i < o.via.array.size; ++i) {
      at.push_back({"", i});
      collect_keys(o.via.array.ptr[i], at, out);
      at.pop_back();
    }
  }
}

enum class Edit { kDrop, kReplaceWithMap };

// Re-packs `o` with the key at `path` (relative to o) dropped or its value replaced.
void repack(Packer& pk, const msgpack::object& o, const KeyPath& path, std::size_t depth, Edit edit) {
  const bool on_path = depth < path.size();
  if (o.type == msgpack::type::MAP && on_path && !path[depth].key.empty()) {
    const bool last = depth + 1 == path.size();
    const std::uint32_t n = o.via.map.size - (last && edit == Edit::kDrop ? 1 : 0);
    pk.pack_map(n);
    for (std::uint32_t i = 0; i < o.via.map.size; ++i) {
      const auto& kv = o.via.map.ptr[i];
      const bool hit = kv.key.as<std::string>() == path[depth].key;
      if (hit && last && edit == Edit::kDrop) continue;
      pk.pack(kv.key);
      if (hit && last) {
        pk.pack_map(0);  // a map is the wrong type for every leaf field
      } else if (hit) {
        repack(pk, kv.val, path, depth + 1, edit);
      } else {
        pk.pack(kv.val);
      }
    }
  } else if (o.type == msgpack::type::ARRAY && on_path && path[depth].key.empty()) {
    pk.pack_array(o.via.array.size);
    for (std::uint32_t i = 0; i < o.via.array.size; ++i) {
      if (i == path[depth].index) {
        repack(pk, o.via.array.ptr[i], path, depth + 1, edit);
      } else {
        pk.pack(o.via.array.ptr[i]);
      }
    }
  } else {
    pk.pack(o);
  }
}

std::string edit_frame(const std::string& frame, const KeyPath& path, Edit edit) {
  msgpack::object_handle h = msgpack::unpack(frame.data(), frame.size());
  const msgpack::object& root = h.get();
  msgpack::sbuffer buf;
  Packer pk(buf);
  pk.pack_array(4);
  for (int i = 0; i < 3; ++i) pk.pack(root.via.array.ptr[i]);
  repack(pk, root.via.array.ptr[3], path, 0, edit);
  return std::string(buf.data(), buf.size());
}

std::vector<KeyPath> all_key_paths(const std::string& frame) {
  msgpack::object_handle h = msgpack::unpack(frame.data(), frame.size());
  std::vector<KeyPath> out;
  KeyPath at;
  collect_keys(h.get().via.array.ptr[3], at, out);
  return out;
}

void expect_error(const Result<Message>& r, std::string_view needle) {
  ASSERT_FALSE(r.has_value()) << "decoded although it should not";
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().message;
}

std::vector<Message> client_samples() {
  std::vector<Message> out;
  for (const Message& m : testing::sample_messages()) {
    const MessageType t = message_type(m);
    if ((t >= MessageType::kJobQuery && t <= MessageType::kNodeControlReply) ||
        t >= MessageType::kMetricsQuery) {
      out.push_back(m);
    }
  }
  return out;
}

// Keys an encoder leaves out when the field is unset, and the paging keys that came after
// the first release (an older peer does not send them).
const std::set<std::string> kOptionalKeys = {
    "start_time", "end_time", "estimated_start", "exit_code", "signal", "last_heartbeat", "job", "after",
    "limit", "more", "total", "uid", "gid", "state_reason",
    // came with Slurm scripts (issue 10)
    "ntasks", "cpus_per_task", "ntasks_per_node", "comment", "open_append", "dependencies", "dependency_any",
    "kill_on_invalid_dep", "nice", "begin", "mem_per_node_mb", "mem_per_cpu_mb", "peak_memory_bytes",
    "cpu_time_ms", "enforcement", "exclusive", "only_nodes", "excluded_nodes", "constraint", "from_store",
    "account", "ended_after", "ended_before", "warn_signal", "warn_before", "warn_batch_only", "mail_events",
    "mail_user", "reservation", "cancelled_at", "below_since",
    // job arrays: the array of a submission ("array"); a
    // task's keys come as a group, each one then required
    "array", "expand_arrays",
    // fairway update job: only what changes is sent
    "new_time_limit", "new_comment", "new_nice", "new_begin",
    // cancel --signal
    "batch_only",
    // a running job's stop in progress (issue 35)
    "stopping_as",
    // sprio -n: each priority term before its weight
    "raw",
    // a partition's access lists (issue 33): absent
    // from older coordinators
    "allow_accounts", "deny_accounts", "allow_groups", "allow_qos", "deny_qos",
    // sinfo -R: who set a node's reason and when
    "reason_user", "reason_uid", "reason_time", "features",
    // sacct's ID.N lines: a job's steps, asked for by with_steps
    "steps", "with_steps",
    // sshare without -a: the caller's own lines
    "callers_own",
    // runtime predictions (issue 37)
    "predicted_runtime", "estimated_start_by_limit"};

TEST(WireClient, SamplesCoverEveryClientMessage) {
  std::set<MessageType> seen;
  for (const Message& m : client_samples()) seen.insert(message_type(m));
  EXPECT_EQ(seen.size(), 28u);
}

TEST(WireClient, EveryNestedKeyDroppedIsNamedMissing) {
  int checked = 0;
  for (const Message& m : client_samples()) {
    const std::string frame = encode(m);
    const std::string type(to_string(message_type(m)));
    for (const KeyPath& path : all_key_paths(frame)) {
      const std::string where = render(type, path);
      SCOPED_TRACE(where);
      auto r = decode(edit_frame(frame, path, Edit::kDrop));
      // SubmitResult.job is optional; JobControlResult.job is not.
      // JobQuery.account (history) is optional; JobView.account is not.
      // A step's messages postdate the optional keys: all required but the ids.
      const bool step = type == "StepRequest" || type == "StepReply" || type == "LaunchStep" ||
                        type == "StepIo" || type == "StepEnded";
      // A step of a job view (sacct's ID.N): all required but its end and a non-zero exit.
      const bool view_step = path.size() >= 3 && path[path.size() - 3].key == "steps";
      const std::string& key = path.back().key;
      // What a step used is absent from older peers' messages and from steps not measured.
      const bool usage = key == "max_rss_kb" || key == "cpu_us";
      // A step's layout and binding beyond -N and -n came later: sent only when asked for.
      const bool layout = key == "cpu_bind" || key == "distribution" || key == "mpi" || key == "exclusive" ||
                          (type == "LaunchStep" && key == "cores") ||
                          (type == "StepRequest" && (key == "nodelist" || key == "exclude" ||
                                                     key == "ntasks_per_node" || key == "cpus_per_task"));
      const bool optional =
          view_step ? (key == "end_time" || key == "exit_code" || key == "signal" || usage)
          : step    ? (path.back().key == "uid" || path.back().key == "gid" || path.back().key == "pty" ||
                    usage || layout)
                    : (kOptionalKeys.contains(path.back().key) &&
                    !(path.back().key == "job" &&
                      (type == "JobControlReply" || type == "SetTimeLimit" || type == "SendSignal")) &&
                    !(path.back().key == "account" && type != "JobQuery") &&
                    !(path.back().key == "signal" && (type == "JobControl" || type == "SendSignal")) &&
                    !(path.back().key == "batch_only" && type == "SendSignal")) ||
                       // why a job control failed, as a code: came with Slurm's scancel
                       (path.back().key == "code" && type == "JobControlReply") ||
                       // a view's: sacct's ID.batch lines (an allocation has none)
                       (path.back().key == "interactive" && type == "JobQueryReply");
      if (optional) {
        ASSERT_TRUE(r.has_value()) << r.error().message;
      } else {
        expect_error(r, "wire: " + where + ": missing");
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 150);
}

TEST(WireClient, EveryNestedKeyMistypedIsNamed) {
  int checked = 0;
  for (const Message& m : client_samples()) {
    const std::string frame = encode(m);
    const std::string type(to_string(message_type(m)));
    for (const KeyPath& path : all_key_paths(frame)) {
      const std::string where = render(type, path);
      SCOPED_TRACE(where);
      expect_error(decode(edit_frame(frame, path, Edit::kReplaceWithMap)), "wire: " + where + ": expected");
      ++checked;
    }
  }
  EXPECT_GT(checked, 150);
}

TEST(WireClient, OptionalFieldsRoundTripAsUnset) {
  JobView pending = testing::sample_job_view(false);
  auto back = decode(encode(JobQueryReply{Time::from_seconds(5), {pending}, false, 1}));
  ASSERT_TRUE(back.has_value()) << back.error().message;
  const JobView& j = std::get<JobQueryReply>(*back).jobs.at(0);
  EXPECT_FALSE(j.start_time.has_value());
  EXPECT_FALSE(j.exit_code.has_value());
  EXPECT_EQ(j.estimated_start, Time::from_seconds(1'700'010'000));
  EXPECT_EQ(j.predicted_runtime, Duration::seconds(900));
  EXPECT_EQ(j.estimated_start_by_limit, Time::from_seconds(1'700'030'000));
  EXPECT_TRUE(j.time_limit.is_infinite());
  EXPECT_EQ(j.priority_factors, pending.priority_factors);

  auto reply = decode(encode(testing::sample_submit_batch_reply()));
  ASSERT_TRUE(reply.has_value()) << reply.error().message;
  const auto& results = std::get<SubmitBatchReply>(*reply).results;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].job, JobId(100));
  EXPECT_FALSE(results[1].job.has_value());
  EXPECT_EQ(results[1].error, "partition \"nope\" does not exist");
}

// Why a job control failed travels as a code; a code no build knows is refused, not cast.
TEST(WireClient, AControlResultsCodeIsRangeChecked) {
  JobControlReply r;
  r.results = {control_result(JobId(7), make_error(ErrorCode::kNotFound, "job 7 does not exist")),
               control_result(JobId(8), ok_status())};
  auto back = decode(encode(r));
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(std::get<JobControlReply>(*back), r);
  EXPECT_EQ(std::get<JobControlReply>(*back).results[0].code, ErrorCode::kNotFound);
  for (int bad : {-1, 9, 1000}) {
    r.results[0].code = static_cast<ErrorCode>(bad);
    expect_error(decode(encode(r)),
                 "JobControlReply.results[0].code: unknown error code " + std::to_string(bad));
  }
}

TEST(WireClient, JobActionIsRangeChecked) {
  for (int action = 1; action <= 6; ++action) {
    JobControl c = testing::sample_job_control();
    c.action = static_cast<JobAction>(action);
    if (c.action == JobAction::kSignal) c.signal = 10;
    if (c.action == JobAction::kEndAllocation) c.exit_code = 3;
    auto back = decode(encode(c));
    ASSERT_TRUE(back.has_value()) << back.error().message;
    EXPECT_EQ(std::get<JobControl>(*back), c);
  }
  // An allocation's outcome is an exit status: a code past 255 or a signal past 64 is not.
  for (auto [code, sig, field] :
       {std::tuple{256, 0, "exit_code: must be 0-255"}, std::tuple{0, 65, "signal: must be 0-64"},
        std::tuple{-1, 0, "exit_code"}}) {
    JobControl c = testing::sample_job_control();
    c.action = JobAction::kEndAllocation;
    c.exit_code = code;
    c.signal = sig;
    expect_error(decode(encode(c)), std::string("JobControl.") + field);
  }
  for (int bad : {0, 7, 255}) {
    JobControl c = testing::sample_job_control();
    c.action = static_cast<JobAction>(bad);
    expect_error(decode(encode(c)), "JobControl.action: unknown job action " + std::to_string(bad));
  }
  EXPECT_EQ(to_string(JobAction::kRelease), "release");
  // A signal action needs its signal, 1 to 64.
  JobControl none = testing::sample_job_control();
  none.action = JobAction::kSignal;
  expect_error(decode(encode(none)), "JobControl.signal");
  none.signal = 65;
  expect_error(decode(encode(none)), "JobControl.signal: must be 1-64, got 65");
}

TEST(WireClient, StatesAndCountsAreRangeChecked) {
  JobQueryReply reply = testing::sample_job_query_reply();
  reply.jobs[1].cores = -1;
  expect_error(decode(encode(reply)), "JobQueryReply.jobs[1].cores: integer out of range");

  reply = testing::sample_job_query_reply();
  reply.jobs[0].allocation[1].cores = {4, -5};
  expect_error(decode(encode(reply)), "JobQueryReply.jobs[0].allocation[1].cores[1]: integer out of range");

  reply = testing::sample_job_query_reply();
  reply.jobs[0].priority_factors[2].value = std::numeric_limits<double>::quiet_NaN();
  expect_error(decode(encode(reply)),
               "JobQueryReply.jobs[0].priority_factors[2].value: expected a finite number");

  reply = testing::sample_job_query_reply();
  reply.jobs[1].priority = std::numeric_limits<double>::infinity();
  expect_error(decode(encode(reply)), "JobQueryReply.jobs[1].priority: expected a finite");

  // State names edited in the bytes, as only a foreign writer could send them.
  std::string frame = encode(testing::sample_job_query_reply());
  frame[frame.find("failed") + 5] = 'X';
  expect_error(decode(frame), "JobQueryReply.jobs[0].state: unknown job state \"faileX\"");

  frame = encode(testing::sample_job_query());
  frame[frame.find("node_fail") + 8] = 'X';
  expect_error(decode(frame), "JobQuery.states[2]: unknown job state \"node_faiX\"");

  NodeQueryReply nodes = testing::sample_node_query_reply();
  nodes.nodes[1].memory_mb = -1;
  expect_error(decode(encode(nodes)), "NodeQueryReply.nodes[1].memory_mb: integer out of range");

  SubmitBatch batch = testing::sample_submit_batch();
  batch.requests[1].spec.resources.gpus = -2;
  expect_error(decode(encode(batch)), "SubmitBatch.requests[1].gpus: integer out of range");
}

TEST(WireClient, MetricNamesThatWouldCorruptTheTextFormatAreRefused) {
  MetricsReply m = testing::sample_metrics_reply();
  m.families[0].name = "fairway_jobs{x=\"1\"}";
  auto bad_name = decode(encode(m));
  ASSERT_FALSE(bad_name);
  EXPECT_NE(bad_name.error().message.find("not a metric name"), std::string::npos)
      << bad_name.error().message;
  m = testing::sample_metrics_reply();
  m.families[0].samples[0].labels[0].first = "state\n";
  auto bad_label = decode(encode(m));
  ASSERT_FALSE(bad_label);
  EXPECT_NE(bad_label.error().message.find("not a label name"), std::string::npos)
      << bad_label.error().message;
  m = testing::sample_metrics_reply();
  m.families[0].type = "summary";
  EXPECT_FALSE(decode(encode(m)));
}

TEST(WireClient, IntegerPriorityFromAnotherWriterIsAccepted) {
  // A hand-built factor whose value is an integer, as a non-C++ writer may send it.
  msgpack::sbuffer buf;
  Packer pk(buf);
  pk.pack_array(4);
  pk.pack(std::string("FWY"));
  pk.pack_uint32(1);
  pk.pack_uint16(static_cast<std::uint16_t>(MessageType::kJobQueryReply));
  JobView j = testing::sample_job_view(false);
  std::string frame = encode(JobQueryReply{Time::from_seconds(1), {j}, false, 1});
  msgpack::object_handle h = msgpack::unpack(frame.data(), frame.size());
  const msgpack::object& payload = h.get().via.array.ptr[3];
  // The payload re-packed with jobs[0].priority as the integer -7.
  msgpack::sbuffer pbuf;
  Packer ppk(pbuf);
  ppk.pack_map(payload.via.map.size);
  for (std::uint32_t i = 0; i < payload.via.map.size; ++i) {
    const auto& kv = payload.via.map.ptr[i];
    ppk.pack(kv.key);
    if (kv.key.as<std::string>() != "jobs") {
      ppk.pack(kv.val);
      continue;
    }
    const msgpack::object& job = kv.val.via.array.ptr[0];
    ppk.pack_array(1);
    ppk.pack_map(job.via.map.size);
    for (std::uint32_t k = 0; k < job.via.map.size; ++k) {
      ppk.pack(job.via.map.ptr[k].key);
      if (job.via.map.ptr[k].key.as<std::string>() == "priority") {
        ppk.pack_int64(-7);
      } else {
        ppk.pack(job.via.map.ptr[k].val);
      }
    }
  }
  std::string edited(buf.data(), buf.size());
  edited.append(pbuf.data(), pbuf.size());
  auto back = decode(edited);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(std::get<JobQueryReply>(*back).jobs.at(0).priority, -7.0);
}

}  // namespace
}  // namespace fairway::wire

namespace fairway::wire {
namespace {

// Issue 33 item 7: the CLI's text views decode replies with every string's control
// characters escaped, nested views and lists included; decode keeps them exact (JSON).
TEST(WireClient, DecodeForTerminalEscapesEveryStringAndDecodeKeepsThemExact) {
  JobView forged = testing::sample_job_view(false);
  forged.name = "x\nroot 1 normal R";
  forged.working_dir = "\x1b[2J";
  forged.reasons = {"Held"};
  forged.reason_texts = {"wait\r\x1b]0;title\a"};
  const std::string frame = encode(JobQueryReply{Time::from_seconds(5), {forged}, false, 1});
  auto shown = decode_for_terminal(frame);
  ASSERT_TRUE(shown.has_value()) << shown.error().message;
  const JobView& j = std::get<JobQueryReply>(*shown).jobs.at(0);
  EXPECT_EQ(j.name, "x\\nroot 1 normal R");
  EXPECT_EQ(j.working_dir, "\\x1b[2J");
  EXPECT_EQ(j.reason_texts.at(0), "wait\\r\\x1b]0;title\\x07");
  auto exact = decode(frame);
  ASSERT_TRUE(exact.has_value());
  EXPECT_EQ(std::get<JobQueryReply>(*exact).jobs.at(0).name, forged.name);
}

}  // namespace
}  // namespace fairway::wire
