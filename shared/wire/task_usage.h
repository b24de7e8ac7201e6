// What a step's task used, as sacct shows a step (MaxRSS, TotalCPU): measured by the
// node's relay when it reaps the task, carried to srun in the task's exit message.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fairway::wire {

struct TaskUsage {
  std::int64_t max_rss_kb = 0;  // its largest resident set, KiB
  std::int64_t cpu_us = 0;      // user + system CPU time, microseconds
  bool operator==(const TaskUsage&) const = default;
};

// "rss_kb=N cpu_us=N", the text of a kExit message's data.
std::string format_task_usage(const TaskUsage& usage);

// The usage in such a text; nullopt for anything else (an older relay sends nothing), so
// that a hostile or garbled value is dropped rather than recorded: both numbers must be
// whole, non-negative and below 2^53.
std::optional<TaskUsage> parse_task_usage(std::string_view text);

}  // namespace fairway::wire
