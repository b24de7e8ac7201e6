// JSON Lines workload reader: one job object per line (docs/architecture.md section 7.1). Every value
// is type- and range-checked before use, and nlohmann's non-throwing API keeps its
// exceptions from ever escaping: a bad line becomes an error naming the line and key.
#include <array>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "coordinator/sim/trace_input.h"
#include "coordinator/sim/workload.h"
#include "shared/base/try.h"
#include "shared/config/hostlist.h"
#include "shared/model/dependency_syntax.h"

namespace fairway::sim {
namespace {

using nlohmann::json;

constexpr std::int64_t kMaxSeconds = std::int64_t{1} << 40;  // ~35,000 years; no overflow
constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kMaxId = std::numeric_limits<std::int64_t>::max();

constexpr std::array<std::string_view, 30> kKnownKeys = {"id",          "submit",
                                                         "user",        "account",
                                                         "partition",   "qos",
                                                         "name",        "cores",
                                                         "nodes",       "cores_per_node",
                                                         "gpus",        "gpu_type",
                                                         "time_limit",  "runtime",
                                                         "requeue",     "interactive",
                                                         "hold",        "allow_multi_island",
                                                         "dependency",  "begin",
                                                         "nice",        "kill_on_invalid_dep",
                                                         "nodelist",    "exclude",
                                                         "constraint",  "exclusive",
                                                         "reservation", "mem",
                                                         "mem_per_cpu", "array"};
// 1 PiB in MiB: a bound on memory values, so that sums over nodes cannot overflow.
constexpr std::int64_t kMaxMemoryMb = std::int64_t{1} << 30;

// A value shown in a message: short, and in JSON syntax so strings look like strings.
std::string show(const json& v) {
  std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

// Only reached when the fast DOM parse failed: re-parses with a SAX handler whose sole
// job is to capture where and why, since the non-throwing DOM parse discards that.
class ErrorCapture : public nlohmann::json_sax<json> {
 public:
  std::string message = "malformed JSON";
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    // Drop nlohmann's "[json.exception...] parse error at line 1, column N: " preamble,
    // which repeats what we say better ourselves.
    std::string_view what = ex.what();
    if (const auto col = what.find("column "); col != std::string_view::npos) {
      if (const auto sep = what.find(": ", col); sep != std::string_view::npos) {
        what.remove_prefix(sep + 2);
      }
    }
    message = "malformed JSON at column " + std::to_string(position) + ": " + std::string(what);
    return false;
  }
};

std::string describe_parse_error(std::string_view text) {
  ErrorCapture sax;
  json::sax_parse(text.begin(), text.end(), &sax, nlohmann::detail::input_format_t::json, true);
  return sax.message;
}

// Field access for one object; errors come back as "key: what" for the caller to locate.
class Fields {
 public:
  explicit Fields(const json& obj) : obj_(obj) {}

  const json* find(std::string_view key) const {
    const auto it = obj_.find(std::string(key));
    return it == obj_.end() ? nullptr : &*it;
  }

  Result<std::optional<std::int64_t>> integer(std::string_view key, std::int64_t lo, std::int64_t hi) const {
    const json* v = find(key);
    if (v == nullptr) return std::optional<std::int64_t>{};
    if (!v->is_number_integer()) return bad(key, "expected an integer, got " + show(*v));
    if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) {
      return bad(key, "must be <= " + std::to_string(hi) + ", got " + show(*v));
    }
    const auto n = v->get<std::int64_t>();
    if (n < lo) return bad(key, "must be >= " + std::to_string(lo) + ", got " + show(*v));
    if (n > hi) return bad(key, "must be <= " + std::to_string(hi) + ", got " + show(*v));
    return std::optional<std::int64_t>{n};
  }

  Result<std::int64_t> required_integer(std::string_view key, std::int64_t lo, std::int64_t hi) const {
    FAIRWAY_TRY_ASSIGN(v, integer(key, lo, hi));
    if (!v) return bad(key, "required");
    return *v;
  }

  Result<std::optional<std::string>> string(std::string_view key) const {
    const json* v = find(key);
    if (v == nullptr) return std::optional<std::string>{};
    if (!v->is_string()) return bad(key, "expected a string, got " + show(*v));
    return std::optional<std::string>{v->get<std::string>()};
  }

  Result<bool> boolean(std::string_view key, bool dflt) const {
    const json* v = find(key);
    if (v == nullptr) return dflt;
    if (!v->is_boolean()) return bad(key, "expected true or false, got " + show(*v));
    return v->get<bool>();
  }

  static std::unexpected<Error> bad(std::string_view key, const std::string& what) {
    return invalid_argument(std::string(key) + ": " + what);
  }

 private:
  const json& obj_;
};

Status check_keys(const json& obj) {
  for (const auto& item : obj.items()) {
    bool known = false;
    for (const auto k : kKnownKeys) known = known || item.key() == k;
    if (!known) return Fields::bad(item.key(), "unknown key");
  }
  return ok_status();
}

// Strings with their defaults; fills the named members of the spec.
Status read_names(const Fields& f, JobSpec& s) {
  FAIRWAY_TRY_ASSIGN(user, f.string("user"));
  if (!user) return Fields::bad("user", "required");
  s.user = std::move(*user);
  const std::array<std::pair<std::string_view, std::string*>, 4> optional_names = {{
      {"account", &s.account},
      {"partition", &s.partition},
      {"qos", &s.qos},
      {"name", &s.name},
  }};
  for (const auto& [key, out] : optional_names) {
    FAIRWAY_TRY_ASSIGN(v, f.string(key));
    if (v) *out = std::move(*v);
  }
  return ok_status();
}

// Either `cores` (spread freely; gpus is the total) or `nodes` x `cores_per_node` (gpus
// is per node): the two request shapes of ResourceRequest.
Status read_resources(const Fields& f, ResourceRequest& r) {
  FAIRWAY_TRY_ASSIGN(cores, f.integer("cores", 1, kMaxCount));
  FAIRWAY_TRY_ASSIGN(nodes, f.integer("nodes", 1, kMaxCount));
  FAIRWAY_TRY_ASSIGN(per_node, f.integer("cores_per_node", 1, kMaxCount));
  FAIRWAY_TRY_ASSIGN(gpus, f.integer("gpus", 0, kMaxCount));
  FAIRWAY_TRY_ASSIGN(gpu_type, f.string("gpu_type"));

  if (cores && nodes) return Fields::bad("nodes", "give either cores or nodes, not both");
  if (per_node && !nodes) return Fields::bad("cores_per_node", "requires nodes");
  if (nodes) {
    r.nodes = static_cast<std::int32_t>(*nodes);
    r.cores = static_cast<std::int32_t>(per_node.value_or(1));
    if (r.total_cores() > kMaxCount) {
      return Fields::bad("nodes", "nodes x cores_per_node must be <= " + std::to_string(kMaxCount));
    }
  } else {
    r.nodes = 0;
    r.cores = static_cast<std::int32_t>(cores.value_or(1));
  }
  r.gpus = static_cast<std::int32_t>(gpus.value_or(0));
  if (r.total_gpus() > kMaxCount) {
    return Fields::bad("gpus", "total GPUs must be <= " + std::to_string(kMaxCount));
  }
  if (gpu_type) r.gpu_type = std::move(*gpu_type);
  // MiB, as sbatch's --mem (on each node) and --mem-per-cpu.
  FAIRWAY_TRY_ASSIGN(mem, f.integer("mem", 1, kMaxMemoryMb));
  FAIRWAY_TRY_ASSIGN(mem_per_cpu, f.integer("mem_per_cpu", 1, kMaxMemoryMb));
  if (mem && mem_per_cpu) return Fields::bad("mem_per_cpu", "give either mem or mem_per_cpu, not both");
  r.memory_per_node_mb = mem.value_or(0);
  r.memory_per_cpu_mb = mem_per_cpu.value_or(0);
  return ok_status();
}

Status read_flags(const Fields& f, JobSpec& s) {
  const std::array<std::pair<std::string_view, bool*>, 6> flags = {{
      {"requeue", &s.requeue},
      {"interactive", &s.interactive},
      {"hold", &s.hold},
      {"allow_multi_island", &s.allow_multi_island},
      {"kill_on_invalid_dep", &s.kill_on_invalid_dep},
      {"exclusive", &s.exclusive},
  }};
  for (const auto& [key, out] : flags) {
    FAIRWAY_TRY_ASSIGN(v, f.boolean(key, *out));
    *out = v;
  }
  return ok_status();
}

// sbatch's --dependency (in its own syntax), --begin (absolute seconds), --nice, node
// selection and --reservation.
Status read_scheduling_hints(const Fields& f, JobSpec& s) {
  FAIRWAY_TRY_ASSIGN(dependency, f.string("dependency"));
  if (dependency && !(dependency)->empty()) {
    auto parsed = parse_dependency_option(*dependency);
    if (!parsed) return Fields::bad("dependency", parsed.error().message);
    if (!parsed->tasks.empty()) {
      return Fields::bad("dependency",
                         "an array task (\"" + std::to_string(parsed->tasks[0].array.value()) + "_" +
                             std::to_string(parsed->tasks[0].index) +
                             "\") is named by its own id in a trace: the array's id + 1 + its position");
    }
    s.dependencies = std::move(parsed->clauses);
    s.dependency_any = parsed->any;
  }
  FAIRWAY_TRY_ASSIGN(begin, f.integer("begin", 0, kMaxSeconds));
  if (begin) s.begin = Time::from_seconds(*begin);
  FAIRWAY_TRY_ASSIGN(nice, f.integer("nice", -kMaxCount + 2, kMaxCount - 2));
  s.nice = static_cast<std::int32_t>(nice.value_or(0));
  // Node selection: host lists as sbatch -w/-x take them, and a -C expression.
  for (const auto& [key, out] :
       {std::pair{"nodelist", &s.only_nodes}, std::pair{"exclude", &s.excluded_nodes}}) {
    FAIRWAY_TRY_ASSIGN(text, f.string(key));
    if (!text) continue;
    auto hosts = expand_hostlist(*text);
    if (!hosts) return Fields::bad(key, hosts.error().message);
    *out = std::move(*hosts);
  }
  FAIRWAY_TRY_ASSIGN(constraint, f.string("constraint"));
  if (constraint) s.constraint = *constraint;
  FAIRWAY_TRY_ASSIGN(reservation, f.string("reservation"));  // sbatch --reservation
  if (reservation) s.reservation = *reservation;
  // sbatch --array: each task runs `runtime`; task ids follow the job's (id + 1 + position).
  FAIRWAY_TRY_ASSIGN(array, f.string("array"));
  if (array) {
    auto parsed = parse_array_spec(*array, kMaxArrayIndex);
    if (!parsed) return Fields::bad("array", parsed.error().message);
    s.array = std::move(*parsed);
  }
  return ok_status();
}

Result<WorkloadJob> parse_job(const json& obj) {
  FAIRWAY_TRY(check_keys(obj));
  const Fields f(obj);
  WorkloadJob j;
  JobSpec& s = j.spec;  // defaults: requeue true, interactive and hold false
  s.requeue = true;
  s.interactive = false;
  s.hold = false;
  s.allow_multi_island = false;

  FAIRWAY_TRY_ASSIGN(id, f.required_integer("id", 0, kMaxId));
  s.id = JobId(static_cast<std::uint64_t>(id));
  FAIRWAY_TRY_ASSIGN(submit, f.required_integer("submit", 0, kMaxSeconds));
  s.submit_time = Time::from_seconds(submit);
  FAIRWAY_TRY(read_names(f, s));
  FAIRWAY_TRY(read_resources(f, s.resources));
  FAIRWAY_TRY_ASSIGN(limit, f.required_integer("time_limit", 1, kMaxSeconds));
  s.time_limit = Duration::seconds(limit);
  FAIRWAY_TRY_ASSIGN(runtime, f.required_integer("runtime", 0, kMaxSeconds));
  j.runtime = Duration::seconds(runtime);
  FAIRWAY_TRY(read_flags(f, s));
  FAIRWAY_TRY(read_scheduling_hints(f, s));
  return j;
}

}  // namespace

Result<Workload> read_jsonl(const std::string& path) {
  FAIRWAY_TRY_ASSIGN(reader, LineReader::open(path));
  Workload w;
  std::string_view line;
  for (;;) {
    FAIRWAY_TRY_ASSIGN(more, reader.next(line));
    if (!more) break;
    const std::int64_t n = reader.line_number();
    if (line.find_first_not_of(" \t\r\v\f") == std::string_view::npos) continue;
    const json obj = json::parse(line.begin(), line.end(), nullptr, false);
    if (obj.is_discarded()) return std::unexpected(line_error(path, n, describe_parse_error(line)));
    if (!obj.is_object()) {
      return std::unexpected(line_error(path, n, "expected a JSON object, got " + show(obj)));
    }
    auto job = parse_job(obj);
    if (!job) return std::unexpected(line_error(path, n, job.error().message));
    job->line = n;
    w.jobs.push_back(std::move(*job));
  }
  FAIRWAY_TRY(finish_workload(w, path));
  return w;
}

}  // namespace fairway::sim
