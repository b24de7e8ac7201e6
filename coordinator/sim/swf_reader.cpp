// Standard Workload Format reader (Parallel Workloads Archive). The job mapping follows
// docs/architecture.md section 7.1; see traces/README.md in the shared folder for the field meanings.
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "coordinator/sim/trace_input.h"
#include "coordinator/sim/workload.h"
#include "shared/base/try.h"

namespace fairway::sim {
namespace {

constexpr int kFields = 18;
// Indexed by field number - 1, as in the field table of traces/README.md in the shared folder.
constexpr std::array<std::string_view, kFields> kFieldNames = {"job number",
                                                               "submit time",
                                                               "wait time",
                                                               "run time",
                                                               "allocated processors",
                                                               "average CPU time",
                                                               "used memory",
                                                               "requested processors",
                                                               "requested time",
                                                               "requested memory",
                                                               "status",
                                                               "user id",
                                                               "group id",
                                                               "executable number",
                                                               "queue number",
                                                               "partition number",
                                                               "preceding job number",
                                                               "think time"};
// The fields the job mapping reads (docs/architecture.md section 7.1); the others only have to be
// numbers, and may be fractional (field 6 is, in several PWA logs).
constexpr bool is_used(int field) {
  switch (field) {
    case 1:
    case 2:
    case 4:
    case 5:
    case 8:
    case 9:
    case 12:
    case 13:
    case 15:
      return true;
    default:
      return false;
  }
}
// Memory fields (KB per processor), read where present: they may be fractional.
constexpr int kUsedMemory = 7;
constexpr int kRequestedMemory = 10;
// 1 PiB per processor: above it a memory field is taken as garbage, not as a request.
constexpr double kMaxKilobytes = 1e12;

// Far beyond any real log (about 35,000 years), low enough that time sums never overflow.
constexpr std::int64_t kMaxSeconds = std::int64_t{1} << 40;
constexpr std::int64_t kMaxReserve = 20'000'000;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Decimal numbers as they appear in unused fields ("552.21", "-1", "1e3").
bool is_decimal(std::string_view t) {
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
  std::size_t digits = 0;
  while (i < t.size() && is_digit(t[i])) ++i, ++digits;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && is_digit(t[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
    std::size_t exp_digits = 0;
    while (i < t.size() && is_digit(t[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == t.size();
}

// A memory field (checked decimal) in whole KB, rounded up; -1 when unknown or absurd.
std::int64_t kilobytes(std::string_view t) {
  double v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || !(v > 0) || v > kMaxKilobytes) return -1;
  return static_cast<std::int64_t>(std::ceil(v));
}

std::optional<std::int64_t> parse_int(std::string_view t) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || ptr != t.data() + t.size()) return std::nullopt;
  return v;
}

// Splits into at most kFields views; returns how many fields the line really has.
int split_fields(std::string_view line, std::array<std::string_view, kFields>& out) {
  int n = 0;
  const char* p = line.data();
  const char* const e = p + line.size();
  for (;;) {
    while (p != e && is_space(*p)) ++p;
    if (p == e) return n;
    const char* start = p;
    while (p != e && !is_space(*p)) ++p;
    if (n < kFields) out[static_cast<std::size_t>(n)] = std::string_view(start, p);
    ++n;
  }
}

std::string field_prefix(int field) {
  return "field " + std::to_string(field) + " (" +
         std::string(kFieldNames[static_cast<std::size_t>(field - 1)]) + "): ";
}

class SwfReader {
 public:
  explicit SwfReader(const std::string& path) : path_(path) {}

  Result<Workload> read() {
    FAIRWAY_TRY_ASSIGN(reader, LineReader::open(path_));
    std::string_view line;
    for (;;) {
      FAIRWAY_TRY_ASSIGN(more, reader.next(line));
      if (!more) break;
      line_ = reader.line_number();
      FAIRWAY_TRY(parse_line(line));
    }
    FAIRWAY_TRY(finish_workload(w_, path_));
    return std::move(w_);
  }

 private:
  std::unexpected<Error> fail(std::string message) const {
    return std::unexpected(line_error(path_, line_, std::move(message)));
  }

  Status parse_line(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && is_space(line[i])) ++i;
    if (i == line.size()) return ok_status();
    if (line[i] == ';') return parse_header(line.substr(i + 1));
    return parse_job(line);
  }

  Status parse_header(std::string_view text) {
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    if (text.starts_with("MaxProcs:")) return header_int("MaxProcs", text.substr(9), w_.max_procs);
    if (text.starts_with("MaxNodes:")) return header_int("MaxNodes", text.substr(9), w_.max_nodes);
    if (text.starts_with("MaxRecords:")) reserve_hint(text.substr(11));
    return ok_status();
  }

  // MaxRecords bounds the job lines (cleaned logs keep the original value), so reserving
  // it spares the vector's regrowth copies; only a hint, capped against odd headers.
  void reserve_hint(std::string_view text) {
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    std::int64_t n = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc() && n > 0 && n <= kMaxReserve && w_.jobs.empty()) {
      w_.jobs.reserve(static_cast<std::size_t>(n));
    }
  }

  // Only the leading integer counts: CTC-SP2 has "MaxNodes: 338 (batch partition; ...)".
  Status header_int(std::string_view key, std::string_view text, std::int32_t& out) {
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || v > std::numeric_limits<std::int32_t>::max()) {
      return fail(std::string(key) + ": expected a leading integer, got '" + std::string(text) + "'");
    }
    out = v < 0 ? 0 : static_cast<std::int32_t>(v);  // -1 is SWF for "unknown"
    return ok_status();
  }

  Status parse_job(std::string_view line) {
    std::array<std::string_view, kFields> tok;
    const int n = split_fields(line, tok);
    if (n != kFields) {
      return fail("expected " + std::to_string(kFields) + " fields, found " + std::to_string(n));
    }
    std::array<std::int64_t, kFields + 1> f{};  // 1-based, as the SWF documentation counts
    for (int k = 1; k <= kFields; ++k) {
      const std::string_view t = tok[static_cast<std::size_t>(k - 1)];
      if (!is_used(k)) {
        if (!is_decimal(t)) return fail(field_prefix(k) + "not a number: '" + std::string(t) + "'");
        if (k == kUsedMemory || k == kRequestedMemory) f[static_cast<std::size_t>(k)] = kilobytes(t);
        continue;
      }
      const auto v = parse_int(t);
      if (!v) return fail(field_prefix(k) + "expected an integer, got '" + std::string(t) + "'");
      f[static_cast<std::size_t>(k)] = *v;
    }
    return add_job(f);
  }

  Status check_range(int field, std::int64_t v, std::int64_t lo, std::int64_t hi) const {
    if (v < lo) {
      return fail(field_prefix(field) + "must be >= " + std::to_string(lo) + ", got " + std::to_string(v));
    }
    if (v > hi) {
      return fail(field_prefix(field) + "must be <= " + std::to_string(hi) + ", got " + std::to_string(v));
    }
    return ok_status();
  }

  Status add_job(const std::array<std::int64_t, kFields + 1>& f) {
    const std::int64_t runtime = f[4];
    const std::int64_t procs = f[5] >= 1 ? f[5] : f[8];
    // Cancelled-before-start and sizeless jobs carry no work to replay (their submit time
    // is often -1 too, so they are dropped before any other check).
    if (runtime < 0 || procs < 1) {
      ++w_.skipped;
      return ok_status();
    }
    const int procs_field = f[5] >= 1 ? 5 : 8;
    FAIRWAY_TRY(check_range(1, f[1], 0, std::numeric_limits<std::int64_t>::max()));
    FAIRWAY_TRY(check_range(2, f[2], 0, kMaxSeconds));
    FAIRWAY_TRY(check_range(4, runtime, 0, kMaxSeconds));
    FAIRWAY_TRY(check_range(procs_field, procs, 1, std::numeric_limits<std::int32_t>::max()));
    FAIRWAY_TRY(check_range(9, f[9], std::numeric_limits<std::int64_t>::min(), kMaxSeconds));

    WorkloadJob& j = w_.jobs.emplace_back();
    j.line = line_;
    j.swf_queue = f[15] >= 0 && f[15] <= std::numeric_limits<std::int32_t>::max()
                      ? static_cast<std::int32_t>(f[15])
                      : -1;
    j.runtime = Duration::seconds(runtime);
    JobSpec& s = j.spec;
    s.id = JobId(static_cast<std::uint64_t>(f[1]));
    s.submit_time = Time::from_seconds(f[2]);
    s.time_limit = Duration::seconds(f[9] > 0 ? f[9] : runtime);
    s.user = f[12] == -1 ? std::string("unknown") : "u" + std::to_string(f[12]);
    s.account = f[13] == -1 ? std::string("unknown") : "g" + std::to_string(f[13]);
    s.resources.nodes = 0;
    s.resources.cores = static_cast<std::int32_t>(procs);
    s.resources.gpus = 0;
    // Requested memory, else what was used: per processor, so per core here. Scheduled
    // only where the config's nodes declare memory_mb.
    const std::int64_t kb = f[kRequestedMemory] > 0 ? f[kRequestedMemory] : f[kUsedMemory];
    if (kb > 0) s.resources.memory_per_cpu_mb = (kb + 1023) / 1024;
    return ok_status();
  }

  const std::string& path_;
  std::int64_t line_ = 0;
  Workload w_;
};

}  // namespace

Result<Workload> read_swf(const std::string& path) {
  return SwfReader(path).read();
}

}  // namespace fairway::sim
