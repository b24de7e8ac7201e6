// The cores of a running job that its --exclusive/--exact steps hold, node by node: such a
// step takes free ones or must wait (srun retries), as Slurm 22.05 allocates steps.
// Pure data; not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fairway {

class StepCores {
 public:
  struct Need {
    std::string node;
    std::vector<std::int32_t> job_cores;  // the job's cores there
    std::int32_t cores = 0;               // how many the step needs there
  };

  // For step `step`, on each node, the first of the job's cores there that no other step
  // holds, as many as it needs: then they are the step's until release(step). nullopt
  // (and nothing taken) when some node has too few free.
  std::optional<std::vector<std::vector<std::int32_t>>> take(std::int32_t step,
                                                             const std::vector<Need>& needs);
  void release(std::int32_t step) { held_.erase(step); }
  // The cores other steps hold on `node`.
  std::vector<std::int32_t> held_on(const std::string& node) const;

 private:
  std::map<std::int32_t, std::map<std::string, std::vector<std::int32_t>>> held_;
};

}  // namespace fairway
