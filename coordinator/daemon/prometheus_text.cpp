#include "coordinator/daemon/prometheus_text.h"

#include <charconv>
#include <cmath>

namespace fairway::daemon {
namespace {

// HELP text escapes backslash and newline; label values also the double quote.
std::string escaped(const std::string& s, bool quote) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (quote && c == '"') {
      out += "\\\"";
    } else {
      out += c;
    }
  }
  return out;
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest exact form
  return ec == std::errc() ? std::string(buf, end) : "NaN";
}

}  // namespace

std::string prometheus_text(const wire::MetricsReply& metrics) {
  std::string out;
  for (const auto& f : metrics.families) {
    out += "# HELP " + f.name + " " + escaped(f.help, false) + "\n";
    out += "# TYPE " + f.name + " " + f.type + "\n";
    for (const auto& s : f.samples) {
      out += f.name + s.suffix;
      if (!s.labels.empty()) {
        out += '{';
        for (std::size_t i = 0; i < s.labels.size(); ++i) {
          if (i > 0) out += ',';
          out += s.labels[i].first + "=\"" + escaped(s.labels[i].second, true) + "\"";
        }
        out += '}';
      }
      out += " " + number(s.value) + "\n";
    }
  }
  return out;
}

}  // namespace fairway::daemon
