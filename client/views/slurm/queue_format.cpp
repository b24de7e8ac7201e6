#include "client/views/slurm/queue_format.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <string_view>
#include <utility>

#include "client/views/fairway/job_views.h"
#include "client/views/slurm/slurm_job_view.h"
#include "client/views/text_format.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

struct FieldInfo {
  char letter;
  const char* header;
};

// squeue's letters that mean something for a Fairway job, with squeue's headers.
constexpr FieldInfo kFields[] = {
    {'A', "JOBID"},
    {'a', "ACCOUNT"},
    {'b', "TRES_PER_NODE"},
    {'C', "CPUS"},
    {'c', "MIN_CPUS"},
    {'D', "NODES"},
    {'e', "END_TIME"},
    {'k', "COMMENT"},
    {'y', "NICE"},
    {'F', "ARRAY_JOB_ID"},
    {'K', "ARRAY_TASK_ID"},
    {'i', "JOBID"},
    {'j', "NAME"},
    {'L', "TIME_LEFT"},
    {'l', "TIME_LIMIT"},
    {'M', "TIME"},
    {'m', "MIN_MEMORY"},
    {'N', "NODELIST"},
    {'P', "PARTITION"},
    {'p', "PRIORITY"},
    {'Q', "PRIORITY"},
    {'q', "QOS"},
    {'R', "NODELIST(REASON)"},
    {'r', "REASON"},
    {'S', "START_TIME"},
    {'T', "STATE"},
    {'t', "ST"},
    {'u', "USER"},
    {'V', "SUBMIT_TIME"},
    {'Z', "WORK_DIR"},
};

const FieldInfo* field_info(char letter) {
  for (const FieldInfo& f : kFields) {
    if (f.letter == letter) return &f;
  }
  return nullptr;
}

std::string known_letters() {
  std::string s;
  for (const FieldInfo& f : kFields) s += f.letter;
  return s;
}

std::optional<Duration> time_left(const wire::JobView& j, Time now) {
  if (j.time_limit.is_infinite()) return std::nullopt;
  if (!j.start_time || is_waiting(j.state)) return j.time_limit;
  const Duration left = j.time_limit - (j.end_time.value_or(now) - *j.start_time);
  return left < Duration::seconds(0) ? Duration::seconds(0) : left;
}

std::string value_of(const wire::JobView& j, char letter, Time now) {
  switch (letter) {
    case 'A':
      return std::to_string(j.id.value());
    case 'i':
      return job_id_text(j);
    case 'F':
      return std::to_string((j.array_job.value() != 0 ? j.array_job : j.id).value());
    case 'K':
      return j.array_job.value() != 0 ? j.array_tasks : "N/A";
    case 'a':
      return j.account;
    // Slurm's tres_per_node: GPUs asked per node (--gpus-per-node, --gres), else N/A. A
    // job from before the request's shape was kept: its GPUs per node, when it has nodes.
    case 'b':
      if (j.gpu_ask.per == GpuAskedPer::kNode) return gpu_tres_text(j, j.gpu_ask.count);
      if (j.gpu_ask.per == GpuAskedPer::kNone && j.gpus > 0 && j.nodes > 0) return gpu_tres_text(j, j.gpus);
      return "N/A";
    case 'C':
      return std::to_string(job_cores(j));
    case 'c':
      return std::to_string(min_cpus_per_node(j));  // Slurm's pn_min_cpus
    case 'D':
      return node_count_text(j);
    case 'e':
      return j.end_time ? format_local_time(*j.end_time) : "N/A";
    case 'j':
      return j.name;
    case 'L': {
      auto left = time_left(j, now);
      return left ? format_elapsed(*left) : "UNLIMITED";
    }
    case 'l':
      return j.time_limit.is_infinite() ? "UNLIMITED" : format_elapsed(j.time_limit);
    case 'M':
      return elapsed_text(j, now);
    case 'm': {
      // As squeue: per node or per core, whichever the job has; "4G" when whole GiB.
      // Memory per GPU is its own (scontrol MemPerTres): squeue shows none per node.
      const std::int64_t mb = j.gpu_ask.mem_per_gpu_mb > 0 ? 0
                              : j.memory_per_node_mb > 0   ? j.memory_per_node_mb
                                                           : j.memory_per_cpu_mb;
      if (mb == 0) return "0";
      return mb % 1024 == 0 ? std::to_string(mb / 1024) + "G" : std::to_string(mb) + "M";
    }
    case 'N':
      return allocated_hostlist(j);
    case 'P':
      return j.partition;
    case 'p':
      return format_number(j.priority);
    case 'Q':
      return std::to_string(static_cast<std::int64_t>(j.priority));
    case 'q':
      return j.qos.empty() ? "normal" : j.qos;  // as scontrol: Slurm's default QOS
    case 'k':
      return j.comment.empty() ? "(null)" : j.comment;
    case 'y':
      return std::to_string(j.nice);
    case 'R':
      return nodelist_or_reason(j);
    case 'r':
      return j.reasons.empty() ? "None" : join(j.reasons, ",");
    case 'S':
      return start_text(j);
    case 'T':
      return state_name(j.state);
    case 't':
      return state_code(j.state);
    case 'u':
      return j.user;
    case 'V':
      return format_local_time(j.submit_time);
    case 'Z':
      return j.working_dir;
  }
  return {};
}

// Sort order of one field: numbers and times by value, text as text.
struct SortValue {
  double number = 0;
  std::string text;
  auto operator<=>(const SortValue&) const = default;
};

SortValue sort_value(const wire::JobView& j, char letter, Time now) {
  const auto seconds = [](std::optional<Time> t) { return t ? static_cast<double>(t->seconds()) : 0.0; };
  switch (letter) {
    case 'A':
    case 'i':
      return {static_cast<double>(j.id.value()), {}};
    case 'C':
      return {static_cast<double>(job_cores(j)), {}};
    case 'D':
      return {static_cast<double>(j.allocation.empty() ? j.nodes : j.allocation.size()), {}};
    case 'e':
      return {seconds(j.end_time), {}};
    case 'L': {
      auto left = time_left(j, now);
      return {left ? static_cast<double>(left->count()) : 1e300, {}};
    }
    case 'l':
      return {static_cast<double>(j.time_limit.count()), {}};
    case 'M': {
      if (!j.start_time || is_waiting(j.state)) return {0, {}};
      return {static_cast<double>((j.end_time.value_or(now) - *j.start_time).count()), {}};
    }
    case 'p':
    case 'Q':
      return {j.state == JobState::kHeld ? -1e300 : j.priority, {}};  // held: below all, as Slurm's 0
    case 'S':
      return {seconds(is_waiting(j.state) ? j.estimated_start : j.start_time), {}};
    case 't':
    case 'T':
      return {static_cast<double>(slurm_state_rank(j.state)), {}};
    case 'V':
      return {seconds(j.submit_time), {}};
  }
  return {0, value_of(j, letter, now)};
}

}  // namespace

Result<std::vector<QueueField>> parse_queue_format(const std::string& format) {
  return parse_percent_format(
      format, [](char letter) { return field_info(letter) != nullptr; }, known_letters());
}

Result<std::vector<SortKey>> parse_sort_keys(const std::string& keys) {
  std::vector<SortKey> out;
  std::size_t start = 0;
  while (start <= keys.size()) {
    const std::size_t comma = std::min(keys.find(',', start), keys.size());
    std::string_view word(keys.data() + start, comma - start);
    SortKey k;
    if (word.starts_with('-')) {
      k.descending = true;
      word.remove_prefix(1);
    } else if (word.starts_with('+')) {
      word.remove_prefix(1);
    }
    if (word.size() != 1 || field_info(word[0]) == nullptr) {
      return invalid_argument("--sort \"" + keys + "\": unknown key \"" + std::string(word) + "\" (one of " +
                              known_letters() + ", with - for descending)");
    }
    k.letter = word[0];
    out.push_back(k);
    start = comma + 1;
  }
  return out;
}

void sort_jobs(std::vector<wire::JobView>& jobs, const std::vector<SortKey>& keys, Time now) {
  if (keys.empty() || jobs.size() < 2) return;
  // Each job's keys once, not at every comparison (10,000 jobs: some 140,000 of them), and
  // each view moved once.
  std::vector<std::vector<SortValue>> values(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    values[i].reserve(keys.size());
    for (const SortKey& k : keys) values[i].push_back(sort_value(jobs[i], k.letter, now));
  }
  std::vector<std::size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const SortValue& va = values[a][k];
      const SortValue& vb = values[b][k];
      if (va == vb) continue;
      return keys[k].descending ? vb < va : va < vb;
    }
    return false;
  });
  std::vector<wire::JobView> sorted;
  sorted.reserve(jobs.size());
  for (std::size_t i : order) sorted.push_back(std::move(jobs[i]));
  jobs = std::move(sorted);
}

std::string render_queue_format(const wire::JobQueryReply& reply, const std::vector<QueueField>& fields,
                                bool header) {
  return render_percent_rows(
      fields, reply.jobs.size(),
      [&](std::size_t row, char letter) { return value_of(reply.jobs[row], letter, reply.now); },
      [](char letter) {
        const FieldInfo* info = field_info(letter);
        return std::string(info != nullptr ? info->header : "");
      },
      header, false);  // a padded last field keeps its padding, as squeue prints it
}

}  // namespace fairway::cli
