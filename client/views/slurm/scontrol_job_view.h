// A job as `scontrol show job` prints it (Slurm 22.05's Key=Value layout, which tools
// parse: JobState=, ExitCode=code:signal, NodeList= in host list form, ...), for
// `fairway show job --scontrol` and the scontrol front-end. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "shared/wire/messages.h"

namespace fairway::cli {

// `group_name(gid)`: the group's name, or empty when unknown (the gid is printed alone).
std::string render_scontrol_job(const wire::JobView& j, Time now,
                                const std::function<std::string(std::uint32_t gid)>& group_name);

// The name of `gid` in the group file (a static program reads it itself); empty if absent.
std::string group_name_from_file(std::uint32_t gid, const std::string& path = "/etc/group");

}  // namespace fairway::cli
