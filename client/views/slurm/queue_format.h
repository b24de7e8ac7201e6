// squeue's `-o/--format` for `fairway queue`: `%[.][WIDTH]LETTER` fields with squeue's
// letters and headers, its `-l` and `--start` layouts, and `-S/--sort` keys. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "client/views/slurm/percent_format.h"
#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

using QueueField = PercentField;

// Errors name the unknown letter and its place in the format.
Result<std::vector<QueueField>> parse_queue_format(const std::string& format);

// squeue's layouts: the default, -l/--long and --start.
inline constexpr const char* kQueueLongFormat = "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R";
inline constexpr const char* kQueueStartFormat = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %R";

// "-p,i": squeue's --sort, letters of the format's fields, "-" for descending. Errors name
// the unknown key.
struct SortKey {
  char letter = 0;
  bool descending = false;
};
Result<std::vector<SortKey>> parse_sort_keys(const std::string& keys);
void sort_jobs(std::vector<wire::JobView>& jobs, const std::vector<SortKey>& keys, Time now);

// One line per job (and a header unless `header` is false). Values longer than a width are
// cut to it, as squeue does.
std::string render_queue_format(const wire::JobQueryReply& reply, const std::vector<QueueField>& fields,
                                bool header);

}  // namespace fairway::cli
