// Slurm-style host lists as admins write them in configs: "cn[01-04,07],gpu1" expands
// to cn01 cn02 cn03 cn04 cn07 gpu1, keeping the zero padding of the range bounds.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "shared/base/result.h"

namespace fairway {

Result<std::vector<std::string>> expand_hostlist(std::string_view list);

}  // namespace fairway
