// sinfo's views of partitions and nodes for `fairway nodes -o FORMAT` (and the sinfo
// front-end): one row per partition and node state, as sinfo's default, or one per node
// and partition with -N; sinfo's %-fields, headers and state names. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "client/views/slurm/percent_format.h"
#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

// sinfo's own layouts (Slurm 22.05): the default and -N's.
inline constexpr const char* kSinfoDefaultFormat = "%#P %.5a %.10l %.6D %.6t %N";
inline constexpr const char* kSinfoNodeFormat = "%#N %.6D %.#P %6t";
// sinfo -N -l's.
inline constexpr const char* kSinfoNodeLongFormat = "%#N %.6D %.#P %.11T %4c %.8z %.6m %.8d %.6w %.8f %20E";
// sinfo -l's (the listing's time goes first, as ctime writes it).
inline constexpr const char* kSinfoLongFormat = "%9P %.5a %.10l %.10s %.4r %.8h %.10g %.6D %.11T %N";

// sinfo -s's: one row per partition, its nodes counted allocated/idle/other/total.
inline constexpr const char* kSinfoSummaryFormat = "%#P %.5a %.10l %.16F %N";

// sinfo -R's (--list-reasons), and with -l.
inline constexpr const char* kSinfoReasonsFormat = "%20E %9u %19H %N";
inline constexpr const char* kSinfoReasonsLongFormat = "%20E %12U %19H %6t %N";

// Letters: P R a l D t T N c m G C E s r h g u U H z d w f F. Errors name an unknown one.
Result<std::vector<PercentField>> parse_sinfo_format(const std::string& format);

// `summarize` (sinfo -s): one row per partition whatever its nodes' states.
std::string render_sinfo(const wire::PartitionQueryReply& partitions, const wire::NodeQueryReply& nodes,
                         const std::vector<PercentField>& fields, bool node_oriented, bool header,
                         bool summarize = false);

// sinfo -R: the down and drained nodes that have a reason, one row per reason, setter,
// time and state (u: who set it, U: with the uid, H: when; "Unknown" when not known).
std::string render_sinfo_reasons(const wire::NodeQueryReply& nodes, const std::vector<PercentField>& fields,
                                 bool header);

}  // namespace fairway::cli
