#include "shared/wire/task_usage.h"

#include <charconv>

namespace fairway::wire {
namespace {

constexpr std::int64_t kMaxValue = std::int64_t{1} << 53;

// A whole number in [0, 2^53), all of `text`.
std::optional<std::int64_t> whole(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < 0 || v >= kMaxValue) {
    return std::nullopt;
  }
  return v;
}

}  // namespace

std::string format_task_usage(const TaskUsage& usage) {
  return "rss_kb=" + std::to_string(usage.max_rss_kb) + " cpu_us=" + std::to_string(usage.cpu_us);
}

std::optional<TaskUsage> parse_task_usage(std::string_view text) {
  constexpr std::string_view kRss = "rss_kb=", kCpu = " cpu_us=";
  if (!text.starts_with(kRss)) return std::nullopt;
  text.remove_prefix(kRss.size());
  const auto split = text.find(kCpu);
  if (split == std::string_view::npos) return std::nullopt;
  const auto rss = whole(text.substr(0, split));
  const auto cpu = whole(text.substr(split + kCpu.size()));
  if (!rss || !cpu) return std::nullopt;
  return TaskUsage{*rss, *cpu};
}

}  // namespace fairway::wire
