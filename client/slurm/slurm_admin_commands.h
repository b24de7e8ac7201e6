// scontrol's and sacctmgr's words on Fairway, read into the typed calls of the client
// commands that do the same (slurm_commands.h dispatches here). Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "client/slurm/slurm_commands.h"
#include "shared/base/result.h"

namespace fairway::cli {

// show job|node|partition|reservation|hostnames|hostlist, hold, release, requeue, update
// JobId=/NodeName=; words in any case. Errors name what is not supported.
Result<SlurmTranslation> translate_scontrol(const std::vector<std::string>& args, const SlurmInvocation& inv);

// The read side (list|show user|account|association ...): accounts live in the config.
Result<SlurmTranslation> translate_sacctmgr(const std::vector<std::string>& args);

}  // namespace fairway::cli
