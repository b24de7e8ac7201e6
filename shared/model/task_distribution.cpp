#include "shared/model/task_distribution.h"

#include <algorithm>

namespace fairway {

std::vector<std::int32_t> tasks_per_node(const TaskLayout& tasks,
                                         const std::vector<std::int32_t>& node_cores) {
  const std::size_t n = node_cores.size();
  std::vector<std::int32_t> out(n, 1);
  if (tasks.ntasks > 0) {
    const std::int64_t cpt = tasks.cpus_per_task > 0 ? tasks.cpus_per_task : 1;
    std::int64_t left = tasks.ntasks;
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t fits = std::max<std::int64_t>(1, node_cores[i] / cpt);
      const std::int64_t later = static_cast<std::int64_t>(n - 1 - i);
      out[i] = static_cast<std::int32_t>(std::max<std::int64_t>(1, std::min(fits, left - later)));
      left -= out[i];
    }
  } else if (tasks.ntasks_per_node > 0) {
    std::fill(out.begin(), out.end(), tasks.ntasks_per_node);
  }
  return out;
}

}  // namespace fairway
