// Job priority as a weighted sum of factors, kept as a breakdown so that users can see
// why one job ranks above another (`fairway priority`). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "shared/base/time.h"
#include "shared/config/config.h"

namespace fairway {

struct PriorityBreakdown {
  double age = 0;
  double fairshare = 0;
  double size = 0;
  double partition = 0;
  double qos = 0;
  double node_bin = 0;      // Titan: the node-count bin's aging boost
  double overuse = 0;       // Titan: allocation overuse penalty (<= 0)
  double expansion = 0;     // Maui: expansion factor
  double bypass = 0;        // Maui: bypass count
  double queue_target = 0;  // Maui: target queue time
  double resources = 0;     // Maui: resources requested
  double nice = 0;          // sbatch --nice, subtracted (Slurm: "NICE" in sprio)
  double total = 0;
  // Each term before its weight (sprio -n): minutes waited, the fair-share factor (or
  // target-share minutes), the size fraction, the partition's and QOS's priorities, bin
  // and overuse minutes, the expansion and queue-target factors, the bypass count, cores
  // plus GPUs asked for, and the nice value.
  struct Raw {
    double age = 0, fairshare = 0, size = 0, partition = 0, qos = 0, node_bin = 0, overuse = 0;
    double expansion = 0, bypass = 0, queue_target = 0, resources = 0, nice = 0;
  } raw;
};

struct PriorityInputs {
  Duration waited;              // since the job became eligible (or idle, per age_from)
  double fairshare_factor = 0;  // in [0, 1]; weighted by PriorityWeights::fairshare
  // Titan-style fair-share, in minutes of apparent waiting (weighted like age). When set it
  // replaces the weighted factor.
  std::optional<double> fairshare_minutes;
  double size_fraction = 0;  // job cores / partition cores, in [0, 1]
  double partition_priority = 0;
  double qos_priority = 0;
  std::optional<double> cap;  // the QOS's ceiling on the total, if any
  Duration time_limit;        // for the expansion factor; 0 counts as 1 second
  std::int64_t bypass_count = 0;
  std::int64_t cores = 0;  // requested, for the resources term
  std::int64_t gpus = 0;
  Duration node_bin_boost;   // apparent extra waiting, weighted like age (never capped)
  Duration overuse_penalty;  // apparent lost waiting, weighted like age
  // The job's QOS target queue time, when its QOS sets one; else the weights' global one.
  std::optional<Duration> queue_target_time;
  std::int32_t nice = 0;
};

// (wait + limit) / limit: 1 for a job that has not waited, 2 once it waited its own length.
double expansion_factor(Duration waited, Duration time_limit);
// (e^(4x) - 1) / (e^4 - 1) with x = waited / target capped at 2: 0 at no wait, 1 at the
// target, growing exponentially near it and bounded (about 55) beyond twice the target.
// Infinite target: 0.
double queue_target_factor(Duration waited, Duration target);

PriorityBreakdown compute_priority(const PriorityWeights& w, const PriorityInputs& in);

struct PriorityTerm {
  std::string_view name;  // "age", "fairshare", ..., as `fairway priority` and sprio show them
  double value = 0;
  double raw = 0;  // before its weight (PriorityBreakdown::Raw)
};

// Every term the configuration uses, in a fixed order, each with this job's weighted value:
// a term the site configured shows even where it is 0 for this job, so that a user sees the
// whole formula; one it never uses shows only if it is not 0.
std::vector<PriorityTerm> priority_terms(const Config& config, const PriorityBreakdown& b);

}  // namespace fairway
