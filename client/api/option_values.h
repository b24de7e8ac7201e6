// Values of sbatch options with a grammar of their own: memory sizes (--mem), warning
// signals (--signal) and mail events (--mail-type). Pure and thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shared/base/result.h"

namespace fairway::cli {

// --signal: which signal, how long before the time limit, to whom.
struct WarningSignal {
  std::int32_t signal = 0;
  std::int32_t seconds_before = 60;
  bool batch_only = false;  // B: the batch script alone
  bool operator==(const WarningSignal&) const = default;
};

// sbatch's sizes: a number of MiB, or with a K, M, G or T suffix; 0 means no limit.
// Errors say what is wrong without the option name (the caller adds it).
Result<std::int64_t> parse_memory_mb(std::string_view value);

// USR1, SIGUSR1 or 10: a signal as kill -l names it, or its number (1-64).
Result<std::int32_t> parse_signal_name(std::string_view name);

// [{R|B}:]SIG[@SECONDS] (default 60 s, at most 65535, as Slurm); errors name the value.
Result<WarningSignal> parse_signal_option(std::string_view value);

// --mail-type's list into JobMailEvent bits; events Fairway does not mail about yet add
// a warning. Errors name an unknown event.
Result<std::uint8_t> parse_mail_types(std::string_view list, std::vector<std::string>& warnings);

}  // namespace fairway::cli
