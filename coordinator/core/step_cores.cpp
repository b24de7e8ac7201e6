#include "coordinator/core/step_cores.h"

#include <algorithm>

namespace fairway {

std::vector<std::int32_t> StepCores::held_on(const std::string& node) const {
  std::vector<std::int32_t> out;
  for (const auto& [step, nodes] : held_) {
    if (auto it = nodes.find(node); it != nodes.end())
      out.insert(out.end(), it->second.begin(), it->second.end());
  }
  return out;
}

std::optional<std::vector<std::vector<std::int32_t>>> StepCores::take(std::int32_t step,
                                                                      const std::vector<Need>& needs) {
  std::vector<std::vector<std::int32_t>> chosen;
  for (const Need& need : needs) {
    const std::vector<std::int32_t> held = held_on(need.node);
    std::vector<std::int32_t> mine;
    for (std::int32_t c : need.job_cores) {
      if (static_cast<std::int32_t>(mine.size()) == need.cores) break;
      if (std::find(held.begin(), held.end(), c) == held.end()) mine.push_back(c);
    }
    if (static_cast<std::int32_t>(mine.size()) < need.cores) return std::nullopt;
    chosen.push_back(std::move(mine));
  }
  auto& nodes = held_[step];
  for (std::size_t i = 0; i < needs.size(); ++i) nodes[needs[i].node] = chosen[i];
  return chosen;
}

}  // namespace fairway
