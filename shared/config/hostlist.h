// Slurm-style host lists as admins write them in configs: "cn[01-04,07],gpu1" expands
// to cn01 cn02 cn03 cn04 cn07 gpu1, keeping the zero padding of the range bounds.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "shared/base/result.h"

namespace fairway {

Result<std::vector<std::string>> expand_hostlist(std::string_view list);

// The reverse, as Slurm prints node lists (SLURM_JOB_NODELIST, squeue): names that differ
// only in a trailing number of one width fold into "cn[01-03,07]", in order of first
// appearance of each prefix, numbers ascending; other names stay as they are.
std::string compress_hostlist(const std::vector<std::string>& hosts);

// Slurm's host order (its hostlist sort): by the name without its trailing number, then a
// name without a number first, then by the number's value ("vm" < "vm1" < "vm2" < "vm10").
// A job's nodes are listed, numbered and led (the batch host) in this order.
bool hostlist_less(std::string_view a, std::string_view b);

}  // namespace fairway
