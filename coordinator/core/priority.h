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
  double fairshare_factor = 0;  // in [0, 1]; weighted by PriorityWeights::fairshare
  // Titan-style fair-share, in minutes of apparent waiting (weighted like age). When set it
  // replaces the weighted factor.
  std::optional<double> fairshare_minutes;
  double size_fraction = 0;  // job cores / partition cores, in [0, 1]
  double partition_priority = 0;
  double qos_priority = 0;
  std::optional<double> cap;  // the QOS's ceiling on the total, if any
};

PriorityBreakdown compute_priority(const PriorityWeights& w, const PriorityInputs& in);

}  // namespace fairway
