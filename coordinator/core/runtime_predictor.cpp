#include "coordinator/core/runtime_predictor.h"

#include <algorithm>

namespace fairway {

void RuntimePredictor::record(const std::string& user, Duration runtime, Time ended) {
  LastTwo& l = last_[user];
  const Run run{std::max<std::int64_t>(runtime.count(), 0), ended};
  if (l.count == 0 || ended >= l.runs[0].ended) {
    l.runs[1] = l.runs[0];
    l.runs[0] = run;
  } else if (l.count == 1 || ended >= l.runs[1].ended) {
    l.runs[1] = run;
  } else {
    return;  // older than both kept
  }
  l.count = std::min(l.count + 1, 2);
}

Duration RuntimePredictor::predict(const std::string& user, Duration limit) const {
  const auto it = last_.find(user);
  if (it == last_.end() || it->second.count < 2) return limit;
  // Rounded up: a prediction of zero would plan a job that takes no time.
  const std::int64_t mean = (it->second.runs[0].seconds + it->second.runs[1].seconds + 1) / 2;
  return std::min(Duration::seconds(std::max<std::int64_t>(mean, 1)), limit);
}

Duration RuntimePredictor::extend(Duration elapsed, Duration limit) {
  static constexpr std::array<std::int64_t, 11> kSteps = {60,    300,   900,   1800,   3600,  7200,
                                                          18000, 36000, 72000, 180000, 360000};
  for (std::int64_t step : kSteps) {
    if (step > elapsed.count()) return std::min(Duration::seconds(step), limit);
  }
  return limit;
}

}  // namespace fairway
