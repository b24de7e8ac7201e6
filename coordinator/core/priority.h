// Job priority as a weighted sum of factors, kept as a breakdown so that users can see
// why one job ranks above another (`fairway priority`).
#pragma once

#include <optional>

#include "shared/base/time.h"
#include "shared/config/config.h"

namespace fairway {

struct PriorityBreakdown {
  double age = 0;
  double fairshare = 0;
  double size = 0;
  double partition = 0;
  double qos = 0;
  double total = 0;
};

struct PriorityInputs {
  Duration waited;          // since the job became eligible
  double fairshare_factor;  // in [0, 1]
  double size_fraction;     // job cores / partition cores, in [0, 1]
  double partition_priority;
  double qos_priority;
  std::optional<double> cap;  // the QOS's ceiling on the total, if any
};

PriorityBreakdown compute_priority(const PriorityWeights& w, const PriorityInputs& in);

}  // namespace fairway
