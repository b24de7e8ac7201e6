#include "client/views/text_format.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>

namespace fairway::cli {

std::string format_local_time(Time t) {
  if (t.is_never()) return "N/A";
  const std::time_t secs = static_cast<std::time_t>(t.seconds());
  std::tm tm{};
  if (localtime_r(&secs, &tm) == nullptr) return "N/A";
  char buf[32];
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return n == 0 ? "N/A" : std::string(buf, n);
}

std::string format_elapsed(Duration d) {
  std::int64_t s = std::max<std::int64_t>(d.count(), 0);
  const std::int64_t days = s / 86400;
  s %= 86400;
  const std::int64_t h = s / 3600;
  const std::int64_t m = (s % 3600) / 60;
  const std::int64_t sec = s % 60;
  char buf[64];
  if (days > 0) {
    std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld", static_cast<long long>(days),
                  static_cast<long long>(h), static_cast<long long>(m), static_cast<long long>(sec));
  } else if (h > 0) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(h), static_cast<long long>(m),
                  static_cast<long long>(sec));
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld", static_cast<long long>(m), static_cast<long long>(sec));
  }
  return buf;
}

std::string state_code(JobState s) {
  switch (s) {
    case JobState::kPending:
      return "PD";
    case JobState::kHeld:
      return "H";
    case JobState::kBlocked:
      return "BL";
    case JobState::kRunning:
      return "R";
    case JobState::kCompleting:
      return "CG";
    case JobState::kCompleted:
      return "CD";
    case JobState::kFailed:
      return "F";
    case JobState::kCancelled:
      return "CA";
    case JobState::kTimeout:
      return "TO";
    case JobState::kPreempted:
      return "PR";
    case JobState::kRequeued:
      return "RQ";
    case JobState::kNodeFail:
      return "NF";
    case JobState::kOutOfMemory:
      return "OOM";
  }
  return "?";
}

std::string state_name(JobState s) {
  std::string name(to_string(s));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string render_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size(), 0);
  const auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
      width[c] = std::max(width[c], row[c].size());
    }
  };
  measure(header);
  for (const auto& row : rows) measure(row);
  std::string out;
  const auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
      if (c > 0) line += "  ";
      line += row[c];
      if (c + 1 < row.size()) line.append(width[c] - row[c].size(), ' ');
    }
    // Empty trailing cells leave no trailing blanks (they would trip up `grep 'x$'`).
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  emit(header);
  for (const auto& row : rows) emit(row);
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::string format_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string to_upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string format_ctime(Time t) {
  const auto secs = static_cast<std::time_t>(t.seconds());
  std::tm tm{};
  char buf[64];
  if (localtime_r(&secs, &tm) == nullptr || std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm) == 0)
    return "";
  return buf;
}

std::vector<std::string> comma_words(std::string_view text) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    if (end > begin) out.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

}  // namespace fairway::cli
