// Runs a small scenario through the simulator for the sim tests: config text and JSONL
// workload in, the schedule out, and the independent validator over it (or a variant).
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "coordinator/sim/schedule_validator.h"
#include "coordinator/sim/simulation.h"
#include "shared/config/config.h"

namespace fairway::sim::scenario {

struct JsonlRun {
  Config config;
  Workload workload;
  SimulationResult result;
};

inline JsonlRun simulate_jsonl(const std::string& toml, const std::string& jsonl) {
  namespace fs = std::filesystem;
  const fs::path file =
      fs::temp_directory_path() / ("fairway-scenario-" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(file) << jsonl;
  auto config = parse_config(toml, "scenario.toml");
  EXPECT_TRUE(config) << config.error().message;
  auto workload = read_jsonl(file.string());
  fs::remove(file);
  EXPECT_TRUE(workload) << workload.error().message;
  if (!config || !workload) return {};
  auto result = simulate(*config, *workload);
  EXPECT_TRUE(result) << result.error().message;
  if (!result) return {};
  return {*config, std::move(*workload), std::move(*result)};
}

// The validator over `records` (the run's own, or a forged variant of them).
inline Status validate_records(const JsonlRun& r, const std::vector<ScheduleRecord>& records,
                               bool check_reservations) {
  ValidationInput in;
  in.nodes = &r.result.nodes;
  in.workload = &r.workload;
  in.records = &records;
  in.rejected = r.result.rejected;
  in.check_reservations = check_reservations;
  take_partition_rounding(r.config, in);
  return validate_schedule(in);
}

// Every record of one job, in the schedule's order (preempted runs, then the final one).
inline std::vector<ScheduleRecord> runs_of(const JsonlRun& r, std::uint64_t id) {
  std::vector<ScheduleRecord> out;
  for (const auto& rec : r.result.records) {
    if (rec.id == JobId(id)) out.push_back(rec);
  }
  return out;
}

// Two 4-core nodes, n1 and n2: the machine most scenarios run on.
inline constexpr std::string_view kTwoNodes = "[[nodes]]\nnames = \"n[1-2]\"\ncores_per_socket = 4\n";
// One partition, "general", the default.
inline constexpr std::string_view kGeneralPartition = "[[partitions]]\nname = \"general\"\ndefault = true\n";

// A scenario's config text: `nodes`, then `tables` (partitions, reservations), under EASY backfill.
inline std::string easy_config(std::string_view nodes, std::string_view tables) {
  return std::string(nodes) + "\n" + std::string(tables) + "\n[scheduler]\nbackfill = \"easy\"\n";
}

// A test file's scenarios: one config, and whether the validator checks reservations.
struct Scenario {
  std::string config;
  bool check_reservations = false;

  JsonlRun run(const std::string& jsonl) const { return simulate_jsonl(config, jsonl); }
  Status validate(const JsonlRun& r, const std::vector<ScheduleRecord>& records) const {
    return validate_records(r, records, check_reservations);
  }
};

}  // namespace fairway::sim::scenario
