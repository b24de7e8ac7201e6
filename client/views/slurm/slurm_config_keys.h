// Every key Slurm 22.05's `scontrol show config` prints, in its order, with the value a
// stock 22.05 prints for it (captured on ../shared/slurm-anchor): tools read these keys.
#pragma once

#include <span>
#include <string_view>
#include <utility>

namespace fairway::cli {

// (key, stock value); render_scontrol_config puts Fairway's own value where it has one.
std::span<const std::pair<std::string_view, std::string_view>> slurm_config_keys();

}  // namespace fairway::cli
