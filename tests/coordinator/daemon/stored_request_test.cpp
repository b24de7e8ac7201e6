// The store's own record of a request: every field comes back, version 1's bytes are
// frozen in a golden file, and a damaged or newer record is an error naming what is wrong.
#include "coordinator/daemon/stored_request.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "shared/base/hex.h"
#include "shared/model/job_array.h"
#include "shared/wire/codec.h"
#include "shared/wire/job_fields.h"
#include "shared/wire/msgpack_io.h"

namespace fairway::daemon {
namespace {

// Every field set to a value unlike its default. (A real request is an array or a task of
// one, not both; the record does not care, and the golden file pins both encodings.)
wire::SubmitRequest every_field() {
  wire::SubmitRequest r;
  r.client_token = "tok-7f3a";
  JobSpec& s = r.spec;
  s.name = "golden";
  s.user = "alice";
  s.uid = 1001;
  s.gid = 100;
  s.account = "chem";
  s.partition = "gpu";
  s.qos = "long";
  s.resources.nodes = 2;
  s.resources.cores = 16;
  s.resources.gpus = 4;
  s.resources.gpu_type = "a100";
  s.resources.memory_per_node_mb = 64000;
  s.resources.memory_per_cpu_mb = 2000;
  s.tasks = TaskLayout{8, 2, 4};
  s.time_limit = Duration::seconds(5400);
  s.requeue = false;
  s.interactive = true;
  s.hold = true;
  s.comment = "frozen";
  s.reservation = "climate";
  s.dependencies = {{DependencyType::kAfterOk, {JobId(7), JobId(9)}}, {DependencyType::kSingleton, {}}};
  s.dependency_any = true;
  s.kill_on_invalid_dep = true;
  s.begin = Time::from_seconds(1'900'000'000);
  s.nice = -5;
  s.exclusive = true;
  s.only_nodes = {"n1", "n2"};
  s.excluded_nodes = {"n9"};
  s.constraint = "ib&v100";
  s.warn_signal = 10;
  s.warn_before_s = 90;
  s.warn_batch_only = true;
  s.mail_events = kMailEnd | kMailFail;
  s.mail_user = "ops@example.org";
  s.gpu_ask = GpuAsk{GpuAskedPer::kTask, 1, 4, 2048};
  s.array = *parse_array_spec("1-9:2,20%3", kMaxArrayIndex);
  s.array_job = JobId(41);
  s.array_task = 5;
  s.allow_multi_island = true;
  r.program.script = "#!/bin/sh\necho hi\n";
  r.program.argv = {"/bin/sh", "-c", "true"};
  r.program.working_dir = "/scratch/alice";
  r.program.env = {{"A", "1"}, {"PATH", "/usr/bin"}};
  r.program.stdout_path = "out-%j.txt";
  r.program.stderr_path = "err-%j.txt";
  r.program.open_append = true;
  return r;
}

void expect_same(const wire::SubmitRequest& a, const wire::SubmitRequest& b) {
  const JobSpec& x = a.spec;
  const JobSpec& y = b.spec;
  EXPECT_EQ(a.client_token, b.client_token);
  EXPECT_EQ(x.name, y.name);
  EXPECT_EQ(x.user, y.user);
  EXPECT_EQ(x.uid, y.uid);
  EXPECT_EQ(x.gid, y.gid);
  EXPECT_EQ(x.account, y.account);
  EXPECT_EQ(x.partition, y.partition);
  EXPECT_EQ(x.qos, y.qos);
  EXPECT_EQ(x.resources, y.resources);
  EXPECT_EQ(x.resources.memory_per_node_mb, y.resources.memory_per_node_mb);
  EXPECT_EQ(x.resources.memory_per_cpu_mb, y.resources.memory_per_cpu_mb);
  EXPECT_EQ(x.tasks, y.tasks);
  EXPECT_EQ(x.time_limit, y.time_limit);
  EXPECT_EQ(x.requeue, y.requeue);
  EXPECT_EQ(x.interactive, y.interactive);
  EXPECT_EQ(x.hold, y.hold);
  EXPECT_EQ(x.comment, y.comment);
  EXPECT_EQ(x.reservation, y.reservation);
  EXPECT_EQ(x.dependencies, y.dependencies);
  EXPECT_EQ(x.dependency_any, y.dependency_any);
  EXPECT_EQ(x.kill_on_invalid_dep, y.kill_on_invalid_dep);
  EXPECT_EQ(x.begin, y.begin);
  EXPECT_EQ(x.nice, y.nice);
  EXPECT_EQ(x.exclusive, y.exclusive);
  EXPECT_EQ(x.only_nodes, y.only_nodes);
  EXPECT_EQ(x.excluded_nodes, y.excluded_nodes);
  EXPECT_EQ(x.constraint, y.constraint);
  EXPECT_EQ(x.warn_signal, y.warn_signal);
  EXPECT_EQ(x.warn_before_s, y.warn_before_s);
  EXPECT_EQ(x.warn_batch_only, y.warn_batch_only);
  EXPECT_EQ(x.mail_events, y.mail_events);
  EXPECT_EQ(x.gpu_ask, y.gpu_ask);
  EXPECT_EQ(x.mail_user, y.mail_user);
  EXPECT_EQ(format_array_spec(x.array), format_array_spec(y.array));
  EXPECT_EQ(x.array_job, y.array_job);
  EXPECT_EQ(x.array_task, y.array_task);
  EXPECT_EQ(x.allow_multi_island, y.allow_multi_island);
  EXPECT_EQ(a.program, b.program);
}

// A record built by hand: magic, version and a map of the given fields.
std::string record(std::string_view magic, std::uint32_t version, const wire::SubmitRequest& r,
                   std::string_view drop = {}, std::string_view replace_key = {},
                   std::int64_t replace_with = 0) {
  // Re-pack the real record's map, leaving out or replacing one key.
  const std::string real = encode_stored_request(r);
  auto handle = wire::detail::parse_bounded(real, "test");
  const msgpack::object& map = handle->get().via.array.ptr[2];
  msgpack::sbuffer buf;
  wire::detail::Packer pk(buf);
  pk.pack_array(3);
  wire::detail::put(pk, magic);
  pk.pack_uint32(version);
  std::uint32_t n = 0;
  for (std::uint32_t i = 0; i < map.via.map.size; ++i) n += map.via.map.ptr[i].key.as<std::string>() != drop;
  pk.pack_map(n);
  for (std::uint32_t i = 0; i < map.via.map.size; ++i) {
    const auto& kv = map.via.map.ptr[i];
    const std::string key = kv.key.as<std::string>();
    if (key == drop) continue;
    pk.pack(kv.key);
    if (key == replace_key) {
      pk.pack_int64(replace_with);
    } else {
      pk.pack(kv.val);
    }
  }
  return std::string(buf.data(), buf.size());
}

TEST(StoredRequest, EveryFieldComesBack) {
  auto decoded = decode_stored_request(encode_stored_request(every_field()));
  ASSERT_TRUE(decoded) << decoded.error().message;
  expect_same(*decoded, every_field());
}

TEST(StoredRequest, DefaultsComeBackAsDefaults) {
  auto decoded = decode_stored_request(encode_stored_request(wire::SubmitRequest{}));
  ASSERT_TRUE(decoded) << decoded.error().message;
  expect_same(*decoded, wire::SubmitRequest{});
}

// Version 1's bytes, frozen at schema 6 (stop 21): any change to how a field is written
// fails here, and must come as version 2 with a reader for version 1 instead.
// A version 1 record (before the GPU request's shape was kept) reads as the same request
// with no shape; it is written again as the current version.
TEST(StoredRequest, VersionOneGoldenRecordStillReads) {
  std::ifstream in(std::string(FAIRWAY_SOURCE_DIR) + "/tests/fixtures/store/request-v1.hex");
  ASSERT_TRUE(in);
  std::string text;
  std::getline(in, text);
  auto decoded = decode_stored_request(from_hex(text).value_or(""));
  ASSERT_TRUE(decoded) << decoded.error().message;
  wire::SubmitRequest want = every_field();
  want.spec.gpu_ask = GpuAsk{};
  expect_same(*decoded, want);
  EXPECT_EQ(decoded->spec.gpu_ask, GpuAsk{});
}

// The current version's golden record: every field, the GPU request's shape included.
TEST(StoredRequest, VersionTwoGoldenRecordReadsAndIsWrittenTheSame) {
  std::ifstream in(std::string(FAIRWAY_SOURCE_DIR) + "/tests/fixtures/store/request-v2.hex");
  ASSERT_TRUE(in);
  std::string text;
  std::getline(in, text);
  auto decoded = decode_stored_request(from_hex(text).value_or(""));
  ASSERT_TRUE(decoded) << decoded.error().message;
  expect_same(*decoded, every_field());
  EXPECT_EQ(decoded->spec.gpu_ask, every_field().spec.gpu_ask);
  EXPECT_EQ(to_hex(encode_stored_request(every_field())), text);
}

TEST(StoredRequest, TheWireFrameOfAnOldStoreBecomesTheSameRequest) {
  auto record = stored_request_from_wire_frame(wire::encode(every_field()));
  ASSERT_TRUE(record) << record.error().message;
  auto decoded = decode_stored_request(*record);
  ASSERT_TRUE(decoded) << decoded.error().message;
  // The wire did not carry allow_multi_island (set only by the simulator).
  wire::SubmitRequest expected = every_field();
  expected.spec.allow_multi_island = false;
  expect_same(*decoded, expected);
}

TEST(StoredRequest, AWireFrameThatIsNotASubmitIsNamed) {
  auto record = stored_request_from_wire_frame(wire::encode(wire::Ack{}));
  ASSERT_FALSE(record);
  EXPECT_EQ(record.error().code, ErrorCode::kIo);
  EXPECT_NE(record.error().message.find("not a submit request"), std::string::npos);
  EXPECT_FALSE(stored_request_from_wire_frame(std::string("\xc1", 1)));
}

TEST(StoredRequest, ARecordOfANewerVersionNamesItsVersion) {
  auto decoded = decode_stored_request(record(kStoredRequestMagic, kStoredRequestVersion + 1, every_field()));
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(decoded.error().message.find("record version " + std::to_string(kStoredRequestVersion + 1)),
            std::string::npos)
      << decoded.error().message;
  EXPECT_NE(decoded.error().message.find("newer Fairway"), std::string::npos);
}

TEST(StoredRequest, AWireFrameIsNotARecord) {
  auto decoded = decode_stored_request(wire::encode(every_field()));
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error().code, ErrorCode::kIo);
  EXPECT_NE(decoded.error().message.find("not a record"), std::string::npos) << decoded.error().message;
}

TEST(StoredRequest, AMissingFieldIsNamed) {
  auto decoded = decode_stored_request(record(kStoredRequestMagic, 1, every_field(), "cores"));
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error().code, ErrorCode::kIo);
  EXPECT_NE(decoded.error().message.find("request.cores"), std::string::npos) << decoded.error().message;
}

TEST(StoredRequest, AValueOutOfRangeIsNamedWithTheValue) {
  for (const auto& [key, value] :
       {std::pair{"cores", -3}, std::pair{"warn_signal", 65}, std::pair{"mail_events", 256},
        std::pair{"uid", -1}, std::pair{"time_limit", -60}, std::pair{"array_task", -1}}) {
    auto decoded = decode_stored_request(record(kStoredRequestMagic, 1, every_field(), {}, key, value));
    ASSERT_FALSE(decoded) << key;
    EXPECT_EQ(decoded.error().code, ErrorCode::kIo);
    EXPECT_NE(decoded.error().message.find(std::string("request.") + key), std::string::npos)
        << decoded.error().message;
    EXPECT_NE(decoded.error().message.find(std::to_string(value)), std::string::npos)
        << decoded.error().message;
  }
}

TEST(StoredRequest, DamagedBytesAreAnErrorNeverACrash) {
  const std::string good = encode_stored_request(every_field());
  for (std::size_t cut = 0; cut < good.size(); cut += 7) {
    EXPECT_FALSE(decode_stored_request(good.substr(0, cut))) << "cut at " << cut;
  }
  std::string flipped = good;
  for (std::size_t i = 0; i < flipped.size(); i += 5) {
    flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
    (void)decode_stored_request(flipped);  // may decode or not; must not crash
  }
  EXPECT_FALSE(decode_stored_request(""));
  EXPECT_FALSE(decode_stored_request(good + "x"));
}

// The keys the wire's SubmitRequest list (shared/wire/job_fields.h) names, sent or not.
struct WireKeys {
  std::set<std::string> keys;
  template <class T>
  void field(std::string_view key, const T&) {
    keys.emplace(key);
  }
  template <class T, class... Codec>
  void field(std::string_view key, const T&, const wire::detail::Rule&, const Codec&...) {
    keys.emplace(key);
  }
  template <class F>
  void together(bool, F&& inner) {
    inner(*this);
  }
};

std::set<std::string> stored_keys(const wire::SubmitRequest& r) {
  const std::string real = encode_stored_request(r);
  auto handle = wire::detail::parse_bounded(real, "test");
  const msgpack::object& map = handle->get().via.array.ptr[2];
  std::set<std::string> keys;
  for (std::uint32_t i = 0; i < map.via.map.size; ++i) keys.insert(map.via.map.ptr[i].key.as<std::string>());
  return keys;
}

// The store's list and the wire's share their groups but are two lists (stored_request.cpp
// says why): a JobSpec field added to one and not the other fails here.
TEST(StoredRequest, TheStoreKeepsEveryFieldTheWireSends) {
  const wire::SubmitRequest r = every_field();
  WireKeys wire_list;
  wire::detail::fields(wire_list, r);
  std::set<std::string> sent = std::move(wire_list.keys);
  std::set<std::string> stored = stored_keys(r);
  // One request's question, never stored; and what only the simulator sets, never sent.
  EXPECT_EQ(sent.erase("test_only"), 1u);
  EXPECT_EQ(stored.erase("allow_multi_island"), 1u);
  EXPECT_EQ(sent, stored);
  EXPECT_EQ(stored.size(), 51u);
}

}  // namespace
}  // namespace fairway::daemon
