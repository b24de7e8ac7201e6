// The routing id an agent's connection carries: its node's name for the logs, then 128
// random bits, so that no other peer can take or guess it (docs/security.md).
// Thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "shared/base/result.h"

namespace fairway::net {

// "NAME.<32 hex digits>", new random digits at every call. An error only when the
// kernel gives no random bytes.
Result<std::string> unguessable_routing_id(std::string_view name);

}  // namespace fairway::net
