#include "client/views/metric_value.h"

#include <algorithm>

namespace fairway::cli {

double metric_value(const wire::MetricsReply& r, std::string_view name, std::string_view suffix,
                    std::string_view label, std::string_view value) {
  double sum = 0;
  for (const auto& f : r.families) {
    if (f.name != name) continue;
    for (const auto& s : f.samples) {
      if (s.suffix != suffix) continue;
      if (!label.empty() && std::none_of(s.labels.begin(), s.labels.end(), [&](const wire::EnvVar& l) {
            return l.first == label && l.second == value;
          })) {
        continue;
      }
      sum += s.value;
    }
    return sum;
  }
  return 0;
}

}  // namespace fairway::cli
