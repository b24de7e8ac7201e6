// The job's spec and program on the wire: a SubmitRequest (a message, an element of
// SubmitBatch, and the request the store keeps), and the parts LaunchJob shares with it.
#include <utility>

#include "shared/wire/codec_parts.h"
#include "shared/wire/envelope.h"

namespace fairway::wire::detail {

void put_program(Packer& pk, const JobProgram& p) {
  put_kv(pk, "script", std::string_view(p.script));
  put_kv(pk, "argv", p.argv);
  put_kv(pk, "working_dir", std::string_view(p.working_dir));
  put_kv(pk, "env", p.env);
  put_kv(pk, "stdout_path", std::string_view(p.stdout_path));
  put_kv(pk, "stderr_path", std::string_view(p.stderr_path));
  put_kv(pk, "open_append", p.open_append);
}

void put_warning(Packer& pk, std::int32_t signal, std::int32_t before, bool batch_only) {
  put_kv(pk, "warn_signal", signal);
  put_kv(pk, "warn_before", before);
  put_kv(pk, "warn_batch_only", batch_only);
}

void put_layout(Packer& pk, const TaskLayout& t) {
  put_kv(pk, "ntasks", t.ntasks);
  put_kv(pk, "cpus_per_task", t.cpus_per_task);
  put_kv(pk, "ntasks_per_node", t.ntasks_per_node);
}

void encode_submit_request(Packer& pk, const SubmitRequest& m) {
  const JobSpec& s = m.spec;
  pk.pack_map(28 + kProgramKeys + kLayoutKeys + kWarningKeys + (s.uid ? 1 : 0) + (s.gid ? 1 : 0) +
              (s.begin ? 1 : 0) + (m.test_only ? 1 : 0) + (s.array.empty() ? 0 : 1) +
              (s.is_array_task() ? 2 : 0));
  if (!s.array.empty()) put_kv(pk, "array", std::string_view(format_array_spec(s.array)));
  if (s.is_array_task()) {
    put_kv(pk, "array_job", s.array_job.value());
    put_kv(pk, "array_task", s.array_task);
  }
  if (m.test_only) put_kv(pk, "test_only", true);
  put_kv(pk, "client_token", std::string_view(m.client_token));
  put_kv(pk, "name", std::string_view(s.name));
  put_kv(pk, "user", std::string_view(s.user));
  put_kv(pk, "account", std::string_view(s.account));
  put_kv(pk, "partition", std::string_view(s.partition));
  put_kv(pk, "qos", std::string_view(s.qos));
  put_kv(pk, "nodes", s.resources.nodes);
  put_kv(pk, "cores", s.resources.cores);
  put_kv(pk, "gpus", s.resources.gpus);
  put_kv(pk, "gpu_type", std::string_view(s.resources.gpu_type));
  put_kv(pk, "time_limit", s.time_limit.count());
  put_kv(pk, "requeue", s.requeue);
  put_kv(pk, "interactive", s.interactive);
  put_kv(pk, "hold", s.hold);
  put_layout(pk, s.tasks);
  put_kv(pk, "comment", std::string_view(s.comment));
  put_kv(pk, "reservation", std::string_view(s.reservation));
  put_kv(pk, "dependencies", s.dependencies);
  put_kv(pk, "dependency_any", s.dependency_any);
  put_kv(pk, "kill_on_invalid_dep", s.kill_on_invalid_dep);
  put_kv(pk, "nice", s.nice);
  put_kv(pk, "mem_per_node_mb", s.resources.memory_per_node_mb);
  put_kv(pk, "mem_per_cpu_mb", s.resources.memory_per_cpu_mb);
  put_kv(pk, "exclusive", s.exclusive);
  put_kv(pk, "only_nodes", s.only_nodes);
  put_kv(pk, "excluded_nodes", s.excluded_nodes);
  put_kv(pk, "constraint", std::string_view(s.constraint));
  put_warning(pk, s.warn_signal, s.warn_before_s, s.warn_batch_only);
  put_kv(pk, "mail_events", static_cast<std::int32_t>(s.mail_events));
  put_kv(pk, "mail_user", std::string_view(s.mail_user));
  if (s.begin) put_kv(pk, "begin", s.begin->seconds());
  if (s.uid) put_kv(pk, "uid", static_cast<std::int64_t>(*s.uid));
  if (s.gid) put_kv(pk, "gid", static_cast<std::int64_t>(*s.gid));
  put_program(pk, m.program);
}

// ---- decoding: each reader fills what it can; the caller checks the sticky error once.

// A uid or gid: optional (older peers and stored rows lack it), else a 32-bit id.
std::optional<std::uint32_t> read_id(MapReader& r, std::string_view key) {
  const auto v = r.opt_i64(key);
  if (!v) return std::nullopt;
  if (*v < 0 || *v > 0xFFFFFFFE) {
    r.errors().fail(r.path_of(key), "not a valid id: " + std::to_string(*v));
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*v);
}

JobProgram read_program(MapReader& r) {
  JobProgram p;
  p.script = r.str("script", kMaxFrameBytes);  // a script may be as large as a frame
  p.argv = r.str_list("argv");
  p.working_dir = r.str("working_dir");
  p.env = r.env("env");
  p.stdout_path = r.str("stdout_path");
  p.stderr_path = r.str("stderr_path");
  p.open_append = r.opt_boolean("open_append").value_or(false);
  return p;
}

// --signal's warning; absent in older requests (none).
void read_warning(MapReader& r, std::int32_t& signal, std::int32_t& before, bool& batch_only) {
  signal = r.opt_i32("warn_signal").value_or(0);
  before = r.opt_i32("warn_before").value_or(0);
  batch_only = r.opt_boolean("warn_batch_only").value_or(false);
  if (signal < 0 || signal > 64) r.errors().fail(r.path_of("warn_signal"), "not a signal: " + std::to_string(signal));
  if (before < 0) r.errors().fail(r.path_of("warn_before"), "negative: " + std::to_string(before));
}

// Optional: requests stored before task layouts were sent have none (all "not given").
TaskLayout read_layout(MapReader& r) {
  TaskLayout t;
  const auto count = [&](std::string_view key) {
    const std::int32_t v = r.opt_i32(key).value_or(0);
    if (v < 0) r.errors().fail(r.path_of(key), "negative: " + std::to_string(v));
    return v;
  };
  t.ntasks = count("ntasks");
  t.cpus_per_task = count("cpus_per_task");
  t.ntasks_per_node = count("ntasks_per_node");
  return t;
}

SubmitRequest read_submit_request(MapReader& r) {
  SubmitRequest m;
  JobSpec& s = m.spec;
  m.client_token = r.str("client_token");
  s.name = r.str("name");
  s.user = r.str("user");
  s.account = r.str("account");
  s.partition = r.str("partition");
  s.qos = r.str("qos");
  s.resources.nodes = r.i32("nodes", 0);
  s.resources.cores = r.i32("cores", 0);
  s.resources.gpus = r.i32("gpus", 0);
  s.resources.gpu_type = r.str("gpu_type");
  s.time_limit = Duration::seconds(r.i64("time_limit", 0));
  s.requeue = r.boolean("requeue");
  s.interactive = r.boolean("interactive");
  s.hold = r.boolean("hold");
  s.tasks = read_layout(r);
  s.comment = r.opt_str("comment");
  s.reservation = r.opt_str("reservation");
  if (r.has("dependencies")) s.dependencies = r.dependencies("dependencies");
  s.dependency_any = r.opt_boolean("dependency_any").value_or(false);
  s.kill_on_invalid_dep = r.opt_boolean("kill_on_invalid_dep").value_or(false);
  s.nice = r.opt_i32("nice").value_or(0);
  if (const auto begin = r.opt_i64("begin")) s.begin = Time::from_seconds(*begin);
  s.exclusive = r.opt_boolean("exclusive").value_or(false);
  if (r.has("only_nodes")) s.only_nodes = r.str_list("only_nodes", kMaxNamesPerRequest);
  if (r.has("excluded_nodes")) s.excluded_nodes = r.str_list("excluded_nodes", kMaxNamesPerRequest);
  s.constraint = r.opt_str("constraint");
  read_warning(r, s.warn_signal, s.warn_before_s, s.warn_batch_only);
  const std::int32_t mail = r.opt_i32("mail_events").value_or(0);
  if (mail < 0 || mail > 255) r.errors().fail(r.path_of("mail_events"), "not a set of mail events: " + std::to_string(mail));
  s.mail_events = static_cast<std::uint8_t>(mail & 255);
  s.mail_user = r.opt_str("mail_user", 254);
  for (const auto& [key, field] : {std::pair{"mem_per_node_mb", &s.resources.memory_per_node_mb},
                                   std::pair{"mem_per_cpu_mb", &s.resources.memory_per_cpu_mb}}) {
    *field = r.opt_i64(key).value_or(0);
    if (*field < 0) r.errors().fail(r.path_of(key), "negative: " + std::to_string(*field));
  }
  s.uid = read_id(r, "uid");
  s.gid = read_id(r, "gid");
  m.program = read_program(r);
  m.test_only = r.opt_boolean("test_only").value_or(false);
  if (r.has("array")) {
    // The coordinator holds indices to its own limits.max_array_size; this bounds the text.
    const std::string text = r.str("array");
    if (!r.failed()) {
      if (auto a = parse_array_spec(text, kMaxArrayIndex)) {
        s.array = std::move(*a);
      } else {
        r.errors().fail(r.path_of("array"), a.error().message);
      }
    }
  }
  if (r.has("array_job") || r.has("array_task")) {
    s.array_job = JobId(r.u64("array_job"));
    s.array_task = r.i32("array_task", 0);
  }
  return m;
}

}  // namespace fairway::wire::detail
