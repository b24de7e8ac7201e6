// The compact text form of a job's allocation in the store: "node:cores/gpus;node:cores/gpus"
// with runs of consecutive numbers as ranges ("n01:0-15/0-1"). Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "coordinator/daemon/stored_job.h"
#include "shared/base/result.h"

namespace fairway::daemon {

// The order and multiplicity of cores and GPUs are kept exactly, so decode(encode(a)) == a.
// Errors: an empty node name, a name holding ':', ';', '/' or ',', a negative number.
Result<std::string> encode_allocation(const std::vector<StoredNodeAllocation>& allocation);

// Validates everything it reads (the text comes from disk and may be corrupt): the error
// says what is wrong and where in the text.
Result<std::vector<StoredNodeAllocation>> decode_allocation(std::string_view text);

}  // namespace fairway::daemon
