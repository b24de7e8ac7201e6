// sbatch's --dependency grammar ("afterok:12:13,singleton", "afterany:4?afternotok:5")
// read into JobSpec clauses, for the CLI and the simulator's JSONL. Pure and thread-safe.
#pragma once

#include <string_view>
#include <vector>

#include "shared/base/result.h"
#include "shared/model/job_spec.h"

namespace fairway {

// A clause's job named as one task of an array ("afterok:12_3"): only the coordinator
// knows the task's own id, so the CLI asks it and adds that id to clauses[clause].jobs.
struct DependencyTaskRef {
  std::size_t clause = 0;
  JobId array;
  std::int32_t index = 0;
  bool operator==(const DependencyTaskRef&) const = default;
};

struct DependencyOption {
  std::vector<DependencyClause> clauses;
  bool any = false;                      // clauses joined with '?': one of them is enough
  std::vector<DependencyTaskRef> tasks;  // still to be resolved into clauses' job ids
};

// Errors name the clause and say what is wrong ("--dependency=afterok: no job ids").
// Forms that need features not here yet (aftercorr, "+time" delays, expand) are refused
// with the reason rather than run in the wrong order.
Result<DependencyOption> parse_dependency_option(std::string_view text);

}  // namespace fairway
