#include "shared/base/count_list.h"

namespace fairway {

std::string repeat_counts(const std::vector<std::int32_t>& counts) {
  std::string out;
  for (std::size_t i = 0; i < counts.size();) {
    std::size_t j = i;
    while (j + 1 < counts.size() && counts[j + 1] == counts[i]) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(counts[i]);
    if (j > i) out += "(x" + std::to_string(j - i + 1) + ")";
    i = j + 1;
  }
  return out;
}

}  // namespace fairway
