// SCHEDULE.jsonl lines, built by hand: a whole-trace replay writes ~200k of them, and
// the shape is fixed, so a JSON library would only add allocations.
#include "coordinator/sim/schedule_record.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <string_view>

namespace fairway::sim {
namespace {

void append_int(std::string& out, std::int64_t v) {
  std::array<char, 24> buf;
  const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  (void)ec;  // 24 chars always hold an int64
  out.append(buf.data(), end);
}

// RFC 8259 escaping; bytes >= 0x80 pass through, so UTF-8 names stay readable.
void append_json_string(std::string& out, std::string_view s) {
  static constexpr std::string_view kHex = "0123456789abcdef";
  out.push_back('"');
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out.push_back(kHex[u >> 4]);
          out.push_back(kHex[u & 0xf]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

void append_int_array(std::string& out, const std::vector<std::int32_t>& v) {
  out.push_back('[');
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out.push_back(',');
    append_int(out, v[i]);
  }
  out.push_back(']');
}

void append_key(std::string& out, std::string_view key) {
  out.push_back(',');
  out.push_back('"');
  out += key;
  out += "\":";
}

void append_node_name(std::string& out, NodeIndex n, const std::vector<NodeTopology>& nodes) {
  if (n.value() < nodes.size()) {
    append_json_string(out, nodes[n.value()].name);
    return;
  }
  // Out of range is a caller bug; still emit valid JSON that the validator will reject.
  out += "\"#";
  append_int(out, static_cast<std::int64_t>(n.value()));
  out.push_back('"');
}

}  // namespace

std::string schedule_record_json(const ScheduleRecord& r, const std::vector<NodeTopology>& nodes) {
  std::string out;
  out.reserve(128 + static_cast<std::size_t>(r.allocation.node_count()) * 32 +
              static_cast<std::size_t>(r.allocation.total_cores()) * 4);
  out += "{\"id\":";
  out += std::to_string(r.id.value());
  append_key(out, "submit");
  append_int(out, r.submit.seconds());
  append_key(out, "start");
  append_int(out, r.start.seconds());
  append_key(out, "end");
  append_int(out, r.end.seconds());
  append_key(out, "state");
  append_json_string(out, to_string(r.state));
  append_key(out, "allocation");
  out.push_back('[');
  auto cursor = r.allocation.cursor();
  for (NodeAllocation a; cursor.next(a);) {
    if (out.back() != '[') out.push_back(',');
    out += "{\"node\":";
    append_node_name(out, a.node, nodes);
    out += ",\"cores\":";
    append_int_array(out, a.cores);
    out += ",\"gpus\":";
    append_int_array(out, a.gpus);
    out.push_back('}');
  }
  out.push_back(']');
  append_key(out, "preempted");
  out += r.preempted ? "true" : "false";
  if (r.preempted_by) {
    append_key(out, "preempted_by");
    append_int(out, static_cast<std::int64_t>(r.preempted_by->value()));
  }
  if (r.reserved_start) {
    append_key(out, "reserved_start");
    append_int(out, r.reserved_start->seconds());
  }
  if (r.reserved_at) {
    append_key(out, "reserved_at");
    append_int(out, r.reserved_at->seconds());
  }
  out.push_back('}');
  return out;
}

}  // namespace fairway::sim
