#include "coordinator/daemon/allocation_codec.h"
#include "shared/base/try.h"

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace fairway::daemon {
namespace {

// A corrupt range such as "0-2000000000" must not make us allocate gigabytes.
constexpr std::size_t kMaxNumbersPerList = std::size_t{1} << 20;
// Shorter runs are written one by one: "3,4" is no longer than "3-4".
constexpr std::size_t kMinRunForRange = 3;

Status append_numbers(std::string& out, const std::vector<std::int32_t>& numbers, const std::string& node,
                      std::string_view what) {
  std::size_t i = 0;
  bool first = true;
  while (i < numbers.size()) {
    if (numbers[i] < 0) {
      return invalid_argument("allocation: node '" + node + "': " + std::string(what) + " number " +
                              std::to_string(numbers[i]) + " is negative");
    }
    std::size_t run_end = i + 1;
    while (run_end < numbers.size() && numbers[run_end - 1] < std::numeric_limits<std::int32_t>::max() &&
           numbers[run_end] == numbers[run_end - 1] + 1) {
      ++run_end;
    }
    if (!first) out += ',';
    first = false;
    if (run_end - i >= kMinRunForRange) {
      out += std::to_string(numbers[i]);
      out += '-';
      out += std::to_string(numbers[run_end - 1]);
      i = run_end;
    } else {
      out += std::to_string(numbers[i]);
      ++i;
    }
  }
  return ok_status();
}

Result<std::int32_t> parse_number(std::string_view text, std::string_view where) {
  std::int32_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < 0) {
    return invalid_argument(std::string(where) + ": '" + std::string(text) +
                            "' is not a non-negative 32-bit number");
  }
  return value;
}

Result<std::vector<std::int32_t>> parse_numbers(std::string_view text, std::string_view where) {
  std::vector<std::int32_t> numbers;
  if (text.empty()) return numbers;
  std::size_t pos = 0;
  while (true) {
    std::size_t comma = text.find(',', pos);
    std::string_view item = text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos);
    std::size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      FAIRWAY_TRY_ASSIGN(n, parse_number(item, where));
      numbers.push_back(n);
    } else {
      FAIRWAY_TRY_ASSIGN(lo, parse_number(item.substr(0, dash), where));
      FAIRWAY_TRY_ASSIGN(hi, parse_number(item.substr(dash + 1), where));
      if (hi <= lo) {
        return invalid_argument(std::string(where) + ": range '" + std::string(item) + "' does not ascend");
      }
      if (static_cast<std::size_t>(hi - lo) + 1 > kMaxNumbersPerList - numbers.size()) {
        return invalid_argument(std::string(where) + ": range '" + std::string(item) + "' is too large");
      }
      for (std::int32_t n = lo;; ++n) {
        numbers.push_back(n);
        if (n == hi) break;
      }
    }
    if (numbers.size() > kMaxNumbersPerList) {
      return invalid_argument(std::string(where) + ": more than " + std::to_string(kMaxNumbersPerList) +
                              " numbers");
    }
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return numbers;
}

}  // namespace

Result<std::string> encode_allocation(const std::vector<StoredNodeAllocation>& allocation) {
  std::string out;
  for (std::size_t i = 0; i < allocation.size(); ++i) {
    const StoredNodeAllocation& a = allocation[i];
    if (a.node.empty()) {
      return invalid_argument("allocation: entry " + std::to_string(i) + " has an empty node name");
    }
    if (a.node.find_first_of(":;/,") != std::string::npos) {
      return invalid_argument("allocation: node name '" + a.node + "' holds one of ':', ';', '/', ','");
    }
    if (i > 0) out += ';';
    out += a.node;
    out += ':';
    if (auto s = append_numbers(out, a.cores, a.node, "core"); !s) return std::unexpected(s.error());
    out += '/';
    FAIRWAY_TRY(append_numbers(out, a.gpus, a.node, "gpu"));
  }
  return out;
}

Result<std::vector<StoredNodeAllocation>> decode_allocation(std::string_view text) {
  std::vector<StoredNodeAllocation> allocation;
  if (text.empty()) return allocation;
  std::size_t pos = 0;
  while (true) {
    std::size_t semicolon = text.find(';', pos);
    std::string_view entry =
        text.substr(pos, semicolon == std::string_view::npos ? text.npos : semicolon - pos);
    std::string where =
        "allocation entry " + std::to_string(allocation.size()) + " '" + std::string(entry) + "'";
    std::size_t colon = entry.find(':');
    std::size_t slash = entry.find('/');
    if (colon == std::string_view::npos || colon == 0 || slash == std::string_view::npos || slash < colon ||
        entry.find('/', slash + 1) != std::string_view::npos) {
      return invalid_argument(where + ": expected 'node:cores/gpus'");
    }
    StoredNodeAllocation a;
    a.node = std::string(entry.substr(0, colon));
    FAIRWAY_TRY_ASSIGN(cores, parse_numbers(entry.substr(colon + 1, slash - colon - 1), where + " cores"));
    FAIRWAY_TRY_ASSIGN(gpus, parse_numbers(entry.substr(slash + 1), where + " gpus"));
    a.cores = std::move(cores);
    a.gpus = std::move(gpus);
    allocation.push_back(std::move(a));
    if (semicolon == std::string_view::npos) break;
    pos = semicolon + 1;
  }
  return allocation;
}

}  // namespace fairway::daemon
