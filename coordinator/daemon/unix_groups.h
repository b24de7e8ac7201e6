// The names of a user's Unix groups (primary and supplementary), from the system's group
// database (NSS), for partitions' allow_groups: the core checks them as data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fairway::daemon {

// Empty when the user is unknown or the lookup fails: such a user is in no allowed group.
std::vector<std::string> unix_groups(const std::string& user, std::uint32_t primary_gid);

}  // namespace fairway::daemon
