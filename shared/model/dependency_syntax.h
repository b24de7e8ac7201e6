// sbatch's --dependency grammar ("afterok:12:13,singleton", "afterany:4?afternotok:5")
// read into JobSpec clauses, for the CLI and the simulator's JSONL. Pure and thread-safe.
#pragma once

#include <string_view>
#include <vector>

#include "shared/base/result.h"
#include "shared/model/job_spec.h"

namespace fairway {

struct DependencyOption {
  std::vector<DependencyClause> clauses;
  bool any = false;  // clauses joined with '?': one of them is enough
};

// Errors name the clause and say what is wrong ("--dependency=afterok: no job ids").
// Forms that need features not here yet (array tasks "12_3", aftercorr, "+time" delays,
// expand) are refused with the reason rather than run in the wrong order.
Result<DependencyOption> parse_dependency_option(std::string_view text);

}  // namespace fairway
