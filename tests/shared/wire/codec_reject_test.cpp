#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>

#include "shared/wire/codec.h"
#include "shared/wire/envelope.h"
#include "shared/wire/msgpack_include.h"
#include "wire_test_util.h"

namespace fairway::wire {
namespace {

using Packer = msgpack::packer<msgpack::sbuffer>;

std::string to_string(const msgpack::sbuffer& b) {
  return std::string(b.data(), b.size());
}

// A frame assembled by hand, so that every envelope field can be wrong on purpose.
std::string raw_frame(std::string_view magic, std::uint64_t version, std::uint64_t type,
                      const std::function<void(Packer&)>& payload) {
  msgpack::sbuffer buf;
  Packer pk(buf);
  pk.pack_array(4);
  pk.pack_str(static_cast<std::uint32_t>(magic.size()));
  pk.pack_str_body(magic.data(), static_cast<std::uint32_t>(magic.size()));
  pk.pack_uint64(version);
  pk.pack_uint64(type);
  payload(pk);
  return to_string(buf);
}

void heartbeat_payload(Packer& pk) {
  pk.pack_map(3);
  pk.pack(std::string("node"));
  pk.pack(std::string("n1"));
  pk.pack(std::string("seq"));
  pk.pack_uint64(1);
  pk.pack(std::string("time"));
  pk.pack_int64(100);
}

enum class Edit { kDrop, kFloat, kString, kInt, kAddUnknown };

// Re-packs a valid frame with one payload key edited; the envelope is kept as it was.
std::string edit_payload(const std::string& frame, std::string_view key, Edit edit,
                         std::int64_t int_value = 0, std::string_view str_value = "bogus") {
  msgpack::object_handle h = msgpack::unpack(frame.data(), frame.size());
  const msgpack::object& root = h.get();
  const msgpack::object& payload = root.via.array.ptr[3];
  msgpack::sbuffer buf;
  Packer pk(buf);
  pk.pack_array(4);
  pk.pack(root.via.array.ptr[0]);
  pk.pack(root.via.array.ptr[1]);
  pk.pack(root.via.array.ptr[2]);
  std::uint32_t n = payload.via.map.size;
  if (edit == Edit::kDrop) --n;
  if (edit == Edit::kAddUnknown) ++n;
  pk.pack_map(n);
  for (std::uint32_t i = 0; i < payload.via.map.size; ++i) {
    const auto& kv = payload.via.map.ptr[i];
    const bool hit = kv.key.as<std::string>() == key;
    if (hit && edit == Edit::kDrop) continue;
    pk.pack(kv.key);
    if (!hit) {
      pk.pack(kv.val);
    } else if (edit == Edit::kFloat) {
      pk.pack_double(1.5);
    } else if (edit == Edit::kString) {
      pk.pack(std::string(str_value));
    } else if (edit == Edit::kInt) {
      pk.pack_int64(int_value);
    } else {
      pk.pack(kv.val);
    }
  }
  if (edit == Edit::kAddUnknown) {
    pk.pack(std::string("zz_added_in_a_later_version"));
    pk.pack_array(2);
    pk.pack_nil();
    pk.pack_map(1);
    pk.pack(std::string("x"));
    pk.pack_double(2.5);
  }
  return to_string(buf);
}

std::vector<std::string> payload_keys(const std::string& frame) {
  msgpack::object_handle h = msgpack::unpack(frame.data(), frame.size());
  const msgpack::object& payload = h.get().via.array.ptr[3];
  std::vector<std::string> keys;
  for (std::uint32_t i = 0; i < payload.via.map.size; ++i) {
    keys.push_back(payload.via.map.ptr[i].key.as<std::string>());
  }
  return keys;
}

void expect_error(const Result<Message>& r, std::string_view needle) {
  ASSERT_FALSE(r.has_value()) << "decoded although it should not";
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().message.rfind("wire: ", 0), 0u) << r.error().message;
}

TEST(WireReject, HandBuiltHeartbeatIsAccepted) {
  // Guards the helpers below: with every field right the hand-built frame decodes.
  auto r = decode(raw_frame("FWY", 1, 2, heartbeat_payload));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(std::get<Heartbeat>(*r).seq, 1u);
}

TEST(WireReject, EmptyFrame) {
  expect_error(decode(""), "empty");
}

TEST(WireReject, RandomBytes) {
  expect_error(decode("hello, world"), "wire: frame");
  expect_error(decode(std::string("\xc1\xc1\xc1", 3)), "malformed");
  expect_error(decode(std::string(64, '\0')), "wire: frame");
}

TEST(WireReject, WrongMagic) {
  expect_error(decode(raw_frame("FWZ", 1, 2, heartbeat_payload)), "bad magic");
  expect_error(decode(raw_frame("", 1, 2, heartbeat_payload)), "bad magic");
  expect_error(decode(raw_frame("FWYY", 1, 2, heartbeat_payload)), "bad magic");
}

TEST(WireReject, WrongVersion) {
  expect_error(decode(raw_frame("FWY", 0, 2, heartbeat_payload)), "unsupported version 0");
  expect_error(decode(raw_frame("FWY", 2, 2, heartbeat_payload)), "unsupported version 2");
}

TEST(WireReject, TypeZeroAndUnknownTypes) {
  expect_error(decode(raw_frame("FWY", 1, 0, heartbeat_payload)), "unknown message type 0");
  expect_error(decode(raw_frame("FWY", 1, 999, heartbeat_payload)), "unknown message type 999");
  expect_error(decode(raw_frame("FWY", 1, 40, heartbeat_payload)), "unknown message type 40");
  EXPECT_FALSE(message_type_from_wire(0).has_value());
  EXPECT_TRUE(message_type_from_wire(9).has_value());
  EXPECT_TRUE(message_type_from_wire(17).has_value());
}

TEST(WireReject, WrongEnvelopeShape) {
  msgpack::sbuffer buf;
  Packer pk(buf);
  pk.pack_array(3);
  pk.pack(std::string("FWY"));
  pk.pack_uint8(1);
  pk.pack_uint8(2);
  expect_error(decode(to_string(buf)), "array of 4");

  msgpack::sbuffer map_buf;
  Packer mpk(map_buf);
  mpk.pack_map(0);
  expect_error(decode(to_string(map_buf)), "array of 4");

  // A payload that is not a map is a type error on the message itself.
  auto r = decode(raw_frame("FWY", 1, 2, [](Packer& p) { p.pack_array(0); }));
  expect_error(r, "Heartbeat: expected map");
}

TEST(WireReject, TrailingBytes) {
  std::string frame = encode(testing::sample_heartbeat());
  frame.push_back('\x01');
  expect_error(decode(frame), "trailing");
}

TEST(WireReject, OversizedFrameIsRejectedBeforeParsing) {
  // A syntactically valid start followed by junk: only the size check can reject it first.
  std::string frame = encode(testing::sample_heartbeat());
  frame.resize(kMaxFrameBytes + 1, '\xc1');
  expect_error(decode(frame), "exceeds the limit");
  EXPECT_FALSE(check_frame_size(kMaxFrameBytes + 1).has_value());
  EXPECT_TRUE(check_frame_size(kMaxFrameBytes).has_value());
}

TEST(WireReject, ForgedHugeCountsAreRejectedWithoutAllocating) {
  // array32 and map32 headers claiming 4 billion entries in a 9-byte frame.
  expect_error(decode(std::string("\xdd\xff\xff\xff\xff\x01\x02\x03\x04", 9)), "too large");
  expect_error(decode(std::string("\xdf\xff\xff\xff\xff\x01\x02\x03\x04", 9)), "too large");
  // Within the per-list bound, but beyond the bytes present: truncated, not allocated.
  expect_error(decode(std::string("\xdd\x00\x0f\xff\xff\x01", 6)), "truncated");
  // A str32 claiming 4 GiB.
  expect_error(decode(std::string("\xdb\xff\xff\xff\xff"
                                  "abc",
                                  8)),
               "wire: frame");
}

TEST(WireReject, DeepNestingIsRejected) {
  std::string deep(10000, '\x91');  // [[[[...]]]]
  deep.push_back('\x01');
  expect_error(decode(deep), "nested too deeply");
}

TEST(WireReject, EveryPrefixOfEveryFrameIsAnError) {
  int prefixes = 0;
  for (const Message& m : testing::sample_messages()) {
    const std::string frame = encode(m);
    for (std::size_t n = 0; n < frame.size(); ++n) {
      auto r = decode(std::string_view(frame).substr(0, n));
      ASSERT_FALSE(r.has_value()) << to_string(message_type(m)) << " prefix " << n;
      ++prefixes;
    }
  }
  EXPECT_GT(prefixes, 1000);
}

TEST(WireReject, MissingRequiredKeysNameTypeAndKey) {
  const std::set<std::string> optional = {"exit_code",         "signal",      "reason",
                                          "peak_memory_bytes", "cpu_time_ms", "attempt"};
  int checked = 0;
  for (const Message& m : testing::sample_messages()) {
    const std::string frame = encode(m);
    const std::string type(to_string(message_type(m)));
    for (const std::string& key : payload_keys(frame)) {
      SCOPED_TRACE(type + "." + key);
      auto r = decode(edit_payload(frame, key, Edit::kDrop));
      // Paging keys came after the first release, so an older client may leave them out.
      const bool paging = (type == "JobQuery" && (key == "after" || key == "limit")) ||
                          (type == "JobQueryReply" && (key == "more" || key == "total"));
      // uid/gid came with authenticated identities; stored rows and older peers lack them.
      const bool identity =
          (type == "LaunchJob" || type == "SubmitRequest" || type == "SubmitBatch" || type == "LaunchStep") &&
          (key == "uid" || key == "gid");
      // A step's pty is sent only when asked for.
      // So is what a step asks of its layout and binding beyond -N and -n.
      const bool pty = (type == "StepRequest" || type == "LaunchStep") &&
                       (key == "pty" || key == "cpu_bind" || key == "distribution" || key == "mpi" ||
                        key == "exclusive" || (type == "LaunchStep" && key == "cores") ||
                        (type == "StepRequest" && (key == "nodelist" || key == "exclude" ||
                                                   key == "ntasks_per_node" || key == "cpus_per_task")));
      // What a step used: older clients, and relays that measured nothing, send none.
      const bool step_usage = type == "StepEnded" && (key == "max_rss_kb" || key == "cpu_us");
      // fence_gpu_sockets came later; without it the agent fences, as it always did.
      const bool fence = type == "LaunchJob" && key == "fence_gpu_sockets";
      // Task layouts, comments, open mode and node core counts came with Slurm scripts.
      const bool step = type == "StepRequest" || type == "LaunchStep";
      const bool slurm_script_keys =
          !step &&
          (key == "ntasks" || key == "cpus_per_task" || key == "ntasks_per_node" || key == "comment" ||
           key == "open_append" || key == "node_cores" || key == "dependencies" || key == "dependency_any" ||
           key == "kill_on_invalid_dep" || key == "nice" || key == "begin" || key == "mem_per_node_mb" ||
           key == "mem_per_cpu_mb" || key == "memory_limit_bytes" || key == "enforcement" ||
           key == "exclusive" || key == "only_nodes" || key == "excluded_nodes" || key == "constraint" ||
           key == "warn_signal" || key == "warn_before" || key == "warn_batch_only" || key == "mail_events" ||
           key == "mail_user" || key == "reservation" || key == "array" ||
           (type == "JobQuery" && (key == "from_store" || key == "account" || key == "ended_after" ||
                                   key == "ended_before" || key == "expand_arrays" || key == "with_steps")) ||
           (type == "SharesQuery" && key == "callers_own"));
      // fairway update job sends only what changes.
      const bool update_keys =
          (type == "JobUpdate" && key.starts_with("new_")) || (type == "JobControl" && key == "batch_only");
      // --test-only came later; without the key a request or reply is a real submission,
      // and a test reply with no start promised none.
      const bool test_only = (type == "SubmitRequest" || type == "SubmitReply") &&
                             (key == "test_only" || key == "estimated_start");
      const bool optional_here = paging || identity || pty || step_usage || fence || slurm_script_keys ||
                                 update_keys || test_only ||
                                 (type == "JobStatusUpdate" && optional.contains(key));
      if (optional_here) {
        EXPECT_TRUE(r.has_value());
      } else {
        expect_error(r, "wire: " + type + "." + key + ": missing");
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 40);
}

TEST(WireReject, ALaunchWithoutTheFenceKeyFencesAndTheKeyRoundTrips) {
  LaunchJob m = testing::sample_launch();
  m.fence_gpu_sockets = false;
  auto back = decode(encode(m));
  ASSERT_TRUE(back);
  EXPECT_FALSE(std::get<LaunchJob>(*back).fence_gpu_sockets);
  auto older = decode(edit_payload(encode(m), "fence_gpu_sockets", Edit::kDrop));
  ASSERT_TRUE(older);
  EXPECT_TRUE(std::get<LaunchJob>(*older).fence_gpu_sockets);
  expect_error(decode(edit_payload(encode(m), "fence_gpu_sockets", Edit::kInt, 3)),
               "LaunchJob.fence_gpu_sockets");
}

TEST(WireReject, AnIdOutOfRangeIsNamed) {
  LaunchJob m = testing::sample_launch();
  const std::string frame = encode(m);
  expect_error(decode(edit_payload(frame, "uid", Edit::kInt, -1)), "wire: LaunchJob.uid: not a valid id: -1");
}

TEST(WireReject, WrongFieldTypesNameTypeAndKey) {
  int checked = 0;
  for (const Message& m : testing::sample_messages()) {
    const std::string frame = encode(m);
    const std::string type(to_string(message_type(m)));
    for (const std::string& key : payload_keys(frame)) {
      SCOPED_TRACE(type + "." + key);
      expect_error(decode(edit_payload(frame, key, Edit::kFloat)),
                   "wire: " + type + "." + key + ": expected");
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
}

TEST(WireReject, SpecificTypeMessages) {
  const std::string hb = encode(testing::sample_heartbeat());
  expect_error(decode(edit_payload(hb, "seq", Edit::kInt, -1)),
               "wire: Heartbeat.seq: expected unsigned integer");
  expect_error(decode(edit_payload(hb, "node", Edit::kInt, 7)), "wire: Heartbeat.node: expected string");
  const std::string sub = encode(testing::sample_submit());
  expect_error(decode(edit_payload(sub, "hold", Edit::kInt, 1)),
               "wire: SubmitRequest.hold: expected boolean");
}

TEST(WireReject, UnknownKeysAreIgnored) {
  for (const Message& m : testing::sample_messages()) {
    const std::string frame = encode(m);
    const std::string added = edit_payload(frame, "", Edit::kAddUnknown);
    auto r = decode(added);
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_EQ(encode(*r), frame) << to_string(message_type(m));
  }
}

TEST(WireReject, RangeChecks) {
  const std::string status = encode(testing::sample_status(true));
  expect_error(decode(edit_payload(status, "state", Edit::kString)),
               "JobStatusUpdate.state: unknown job state \"bogus\"");
  expect_error(decode(edit_payload(status, "exit_code", Edit::kInt, std::int64_t{1} << 31)),
               "JobStatusUpdate.exit_code: integer out of range");
  expect_error(decode(edit_payload(status, "attempt", Edit::kInt, -1)),
               "JobStatusUpdate.attempt: attempt -1 is negative");
  expect_error(decode(edit_payload(status, "attempt", Edit::kInt, std::int64_t{1} << 31)),
               "JobStatusUpdate.attempt: integer out of range");
  expect_error(decode(edit_payload(status, "attempt", Edit::kString)), "JobStatusUpdate.attempt: expected");

  const std::string err = encode(ErrorReply{ErrorCode::kIo, "disk"});
  expect_error(decode(edit_payload(err, "code", Edit::kInt, 99)), "ErrorReply.code: unknown");
  expect_error(decode(edit_payload(err, "code", Edit::kInt, -1)), "ErrorReply.code: integer");

  const std::string sig = encode(testing::sample_signal());
  expect_error(decode(edit_payload(sig, "grace", Edit::kInt, -5)), "SignalJob.grace: integer");

  const std::string sub = encode(testing::sample_submit());
  expect_error(decode(edit_payload(sub, "cores", Edit::kInt, std::int64_t{1} << 32)),
               "SubmitRequest.cores: integer out of range");

  // Nested paths: the encoder sends what it is given; the decoder enforces the ranges.
  AgentRegister bad = testing::sample_agent_register();
  bad.topology.sockets[1].cores = -4;
  expect_error(decode(encode(bad)), "AgentRegister.topology.sockets[1].cores: integer out of range");
  bad = testing::sample_agent_register();
  bad.running[1].cores = {3, -1};
  expect_error(decode(encode(bad)), "AgentRegister.running[1].cores[1]: integer out of range");
  bad = testing::sample_agent_register();
  bad.topology.sockets[0].threads_per_core = 0;
  expect_error(decode(encode(bad)), "AgentRegister.topology.sockets[0].threads_per_core");

  LaunchJob launch = testing::sample_launch();
  launch.user.assign(kMaxStringBytes + 1, 'u');
  expect_error(decode(encode(launch)), "LaunchJob.user: string too long");
}

// A step's request comes from a user and its stream from a process the user owns.
TEST(WireReject, StepMessagesOutOfRange) {
  StepReply reply{JobId(4), 1, {"n1", "n2"}, {2}};
  expect_error(decode(encode(reply)), "StepReply.tasks_per_node: has 1 entries for 2 nodes");
  reply.tasks_per_node = {2, 0};
  expect_error(decode(encode(reply)), "StepReply.tasks_per_node[1]: integer out of range");
  LaunchStep launch{JobId(4), 1,           "alice", 1001,  100, {"true"}, {}, "/", {"n1", "n2"}, {1, 1}, 2,
                    1,        "tcp://h:1", "k",     false, "",  "",       "", {}};
  expect_error(decode(encode(launch)), "LaunchStep.node_index: must be 0-1, got 2");
  launch.node_index = 1;
  launch.io_key.assign(257, 'k');
  expect_error(decode(encode(launch)), "LaunchStep.io_key: string too long");
  // What a step used: never negative, never past 2^53.
  expect_error(decode(encode(StepEnded{JobId(4), 0, 0, 0, -1, 0})),
               "StepEnded.max_rss_kb: must be 0-9007199254740992, got -1");
  expect_error(decode(encode(StepEnded{JobId(4), 0, 0, 0, 0, std::int64_t{1} << 60})),
               "StepEnded.cpu_us: must be 0-9007199254740992, got 1152921504606846976");
  StepRequest request{JobId(4), {"true"}, {}, "/", -1, 0,  "tcp://h:1", "k",  false,
                      {},       {},       0,  0,   "", "", "",          false};
  expect_error(decode(encode(request)), "StepRequest.ntasks: integer out of range");
  request.ntasks = 1;
  request.cpus_per_task = -2;
  expect_error(decode(encode(request)), "StepRequest.cpus_per_task: must be 0-10000000, got -2");
  request.cpus_per_task = 0;
  request.ntasks = -1;
  expect_error(decode(encode(request)), "StepRequest.ntasks: integer out of range");
  const std::string io = encode(StepIo{StepIoKind::kStdout, 0, 0, 0, "x"});
  expect_error(decode(edit_payload(io, "kind", Edit::kInt, 14)), "StepIo.kind: must be 1-13, got 14");
  expect_error(decode(edit_payload(io, "kind", Edit::kInt, 0)), "StepIo.kind: integer out of range");
  expect_error(decode(edit_payload(io, "rank", Edit::kInt, -2)), "StepIo.rank: integer out of range");
}

TEST(WireReject, MalformedEnvEntries) {
  const std::string launch = encode(testing::sample_launch());
  expect_error(decode(edit_payload(launch, "env", Edit::kString)), "LaunchJob.env: expected array");
}

}  // namespace
}  // namespace fairway::wire
