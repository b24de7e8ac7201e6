#include "client/fairway/commands.h"
#include "client/views/fairway/config_view.h"

#include "client/views/slurm/slurm_report_views.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ctime>
#include <ostream>

#include "client/views/fairway/job_views.h"
#include "client/views/fairway/json_output.h"
#include "client/views/fairway/node_views.h"
#include "client/views/slurm/queue_format.h"
#include "client/views/slurm/scontrol_job_view.h"
#include "client/views/slurm/showq_view.h"
#include "client/views/slurm/sinfo_view.h"
#include "client/views/slurm/slurm_job_view.h"
#include "client/views/slurm/slurm_json.h"
#include "client/views/text_format.h"
#include "shared/base/try.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    out.push_back(list.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return out;
}

}  // namespace

namespace {

// `id` (the part of `word` before any '_') as a job number; `hint` ends the error.
Result<std::uint64_t> job_number(std::string_view id, std::string_view word, std::string_view hint = {}) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), v);
  if (id.empty() || ec != std::errc() || end != id.data() + id.size() || v == 0) {
    return invalid_argument("job id \"" + std::string(word) + "\" is not a job number" + std::string(hint));
  }
  return v;
}

}  // namespace

Result<std::vector<JobId>> parse_job_ids(const std::vector<std::string>& words) {
  std::vector<JobId> ids;
  for (const std::string& word : words) {
    for (const std::string& id : split_commas(word)) {
      FAIRWAY_TRY_ASSIGN(v, job_number(id, id));
      ids.emplace_back(v);
    }
  }
  return ids;
}

namespace {

// Commas split ids, except inside a task list's brackets.
std::vector<std::string> split_ids(const std::string& word) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char c : word) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

}  // namespace

Result<JobRefs> parse_job_refs(const std::vector<std::string>& words) {
  JobRefs refs;
  for (const std::string& word : words) {
    for (const std::string& id : split_ids(word)) {
      const auto underscore = id.find('_');
      FAIRWAY_TRY_ASSIGN(
          number, job_number(std::string_view(id).substr(0, underscore), id, " (or ID_TASK, ID_[TASKS])"));
      if (underscore == std::string::npos) {
        refs.jobs.emplace_back(number);
        continue;
      }
      std::string tasks = id.substr(underscore + 1);
      if (tasks.size() >= 2 && tasks.front() == '[' && tasks.back() == ']')
        tasks = tasks.substr(1, tasks.size() - 2);
      auto spec = parse_array_spec(tasks, kMaxArrayIndex);
      if (!spec || spec->max_running > 0) {
        return invalid_argument("job id \"" + id + "\": the tasks after '_' are not task indices" +
                                (spec ? std::string() : " (" + spec.error().message + ")"));
      }
      for (std::int64_t p = 0; p < spec->count(); ++p) {
        refs.task_arrays.emplace_back(number);
        refs.task_indices.push_back(spec->index_at(p));
      }
    }
  }
  return refs;
}

Result<std::vector<JobState>> parse_states(const std::string& list) {
  std::vector<JobState> out;
  for (const std::string& word : split_commas(list)) {
    if (to_lower(word) == "all") {  // squeue -t all
      for (int s = 0; s <= static_cast<int>(kLastJobState); ++s) out.push_back(static_cast<JobState>(s));
      continue;
    }
    std::optional<JobState> found;
    for (int s = 0; s <= static_cast<int>(kLastJobState) && !found; ++s) {
      const auto state = static_cast<JobState>(s);
      if (to_lower(word) == to_lower(state_code(state)) || to_lower(word) == to_string(state)) {
        found = state;
      }
    }
    if (!found) {
      return invalid_argument("--states: \"" + word +
                              "\" is not a job state (use PD, R, CD, ... or pending, running, ...)");
    }
    out.push_back(*found);
  }
  return out;
}

Status add_state_and_id_filters(wire::JobQuery& q, const std::string& states, const std::string& jobs) {
  if (!states.empty()) {
    FAIRWAY_TRY_ASSIGN(parsed, parse_states(states));
    q.states = parsed;
  }
  if (!jobs.empty()) {
    // squeue -j 42: an array's id lists all its tasks (the coordinator answers so).
    auto ids = parse_job_ids({jobs});
    if (!ids) return std::unexpected(ids.error().with_context("--jobs"));
    q.jobs = *ids;
  }
  return ok_status();
}

namespace {

// squeue's -A, -n and -w, applied to what the coordinator answered.
Status keep_matching(wire::JobQueryReply& reply, const QueueOptions& o) {
  const auto accounts = comma_words(o.accounts);
  const auto names = comma_words(o.names);
  std::vector<std::string> nodes;
  if (!o.nodes.empty()) {
    auto hosts = expand_hostlist(o.nodes);
    if (!hosts) return invalid_argument("--nodelist: " + hosts.error().message);
    nodes = std::move(*hosts);
  }
  const auto listed = [](const std::vector<std::string>& wanted, const std::string& value) {
    return wanted.empty() || std::find(wanted.begin(), wanted.end(), value) != wanted.end();
  };
  std::erase_if(reply.jobs, [&](const wire::JobView& j) {
    if (!listed(accounts, j.account) || !listed(names, j.name)) return true;
    if (nodes.empty()) return false;
    return std::none_of(j.allocation.begin(), j.allocation.end(),
                        [&](const wire::JobAllocationView& a) { return listed(nodes, a.node); });
  });
  return ok_status();
}

}  // namespace

int run_queue(const QueueOptions& o, const Transport& transport, const Output& io) {
  wire::JobQuery q;
  q.user = o.user;
  q.partition = o.partition;
  q.include_finished = o.all;
  q.expand_arrays = o.expand_arrays;
  if (auto st = add_state_and_id_filters(q, o.states, o.jobs); !st) {
    return report_error(io, st.error().message, kExitUsage);
  }
  // Slurm's PENDING is also what Fairway calls held, blocked and requeued.
  if (o.squeue_rules && std::find(q.states.begin(), q.states.end(), JobState::kPending) != q.states.end()) {
    for (JobState s : {JobState::kHeld, JobState::kBlocked, JobState::kRequeued}) {
      if (std::find(q.states.begin(), q.states.end(), s) == q.states.end()) q.states.push_back(s);
    }
  }
  if (o.steps) {
    if (!o.format.empty() || o.long_format || o.json || o.start || o.showq) {
      return report_error(
          io, "--steps has a layout of its own: no -o, -l, --json, --start or --showq with it", kExitUsage);
    }
    q.states = {JobState::kRunning};
    q.with_steps = true;
    std::string step;  // after the job's id: a number or "batch"
    if (!o.step_id.empty()) {
      const std::string job = o.step_id.substr(0, o.step_id.find('.'));
      if (o.step_id.find('.') != std::string::npos) step = o.step_id.substr(o.step_id.find('.') + 1);
      std::uint64_t id = 0;
      if (std::from_chars(job.data(), job.data() + job.size(), id).ptr != job.data() + job.size() ||
          id == 0) {
        return report_error(io, "invalid step id '" + o.step_id + "' (expected JOB or JOB.STEP)", kExitUsage);
      }
      q.jobs = {JobId(id)};
    }
    auto reply = ask_all_pages(q, transport, io);
    if (!reply) return kExitFailure;
    if (!o.scontrol_steps) {
      io.out << render_squeue_steps(*reply, !o.noheader);
      return kExitOk;
    }
    const std::string text = render_scontrol_steps(*reply, step);
    if (text.empty() && !o.step_id.empty()) {
      // Slurm's words (and exit) for a job or step it does not have running.
      io.err << "slurm_get_job_steps error: Invalid job id specified\n";
      return kExitFailure;
    }
    io.out << (text.empty() ? "No job steps in the system\n" : text);
    return kExitOk;
  }
  // squeue --json lists what the controller still holds, recently ended jobs too (Slurm's
  // MinJobAge; the coordinator's in-memory finished jobs), not the store's history.
  if (o.json && o.squeue_rules && q.states.empty()) q.include_finished = true;
  // --start: when waiting jobs are expected to start, as squeue --start.
  if (o.start && q.states.empty()) q.states = {JobState::kPending, JobState::kBlocked, JobState::kHeld};
  std::string format = o.format;
  if (format.empty() && o.long_format) format = kQueueLongFormat;
  if (format.empty() && o.start) format = kQueueStartFormat;
  std::vector<QueueField> fields;
  if (!format.empty()) {
    auto parsed = parse_queue_format(format);
    if (!parsed) return report_error(io, parsed.error().message, kExitUsage);
    fields = std::move(*parsed);
  }
  std::vector<SortKey> keys;
  if (!o.sort.empty()) {
    auto parsed = parse_sort_keys(o.sort);
    if (!parsed) return report_error(io, parsed.error().message, kExitUsage);
    keys = std::move(*parsed);
  } else if (o.start) {
    keys = {{'S', false}};
  } else if (o.squeue_rules) {
    keys = {{'P', false}, {'t', false}, {'p', true}};  // squeue's default order: -S P,t,-p
  }
  auto reply = ask_all_pages(q, transport, io);
  if (!reply) return kExitFailure;
  if (o.squeue_rules) {
    if (q.jobs.size() == 1 && reply->jobs.empty()) {
      io.err << "slurm_load_jobs error: Invalid job id specified\n";
      return kExitFailure;
    }
    if (q.states.empty() && !o.json) {
      std::erase_if(reply->jobs, [](const wire::JobView& j) { return is_terminal(j.state); });
    }
  }
  if (auto st = keep_matching(*reply, o); !st) return report_error(io, st.error().message, kExitUsage);
  if (o.showq) {
    auto nodes = ask<wire::NodeQueryReply>(wire::NodeQuery{}, transport, io);
    if (!nodes) return kExitFailure;
    io.out << render_showq(*reply, *nodes);
    return kExitOk;
  }
  sort_jobs(reply->jobs, keys, reply->now);
  if (o.squeue_rules) {
    for (wire::JobView& j : reply->jobs) to_slurm_view(j);
  }
  // squeue -l starts with the time of the listing, as ctime writes it.
  if (o.long_format && !o.noheader && !o.json) io.out << format_ctime(reply->now) << "\n";
  if (o.json && o.squeue_rules) {
    // squeue --json: Slurm's shape, which names the cluster and nests running jobs' cores
    // in their nodes' sockets.
    auto cluster = ask_cluster_name(transport, io);
    if (!cluster) return kExitFailure;
    std::vector<wire::NodeView> nodes;
    if (std::any_of(reply->jobs.begin(), reply->jobs.end(),
                    [](const wire::JobView& j) { return !j.allocation.empty(); })) {
      auto all = ask<wire::NodeQueryReply>(wire::NodeQuery{}, transport, io);
      if (!all) return kExitFailure;
      nodes = std::move(all->nodes);
    }
    io.out << squeue_json(*reply, *cluster, nodes,
                          [](std::uint32_t gid) { return group_name_from_file(gid); });
  } else if (o.json) {
    io.out << jobs_json(*reply);
  } else if (!fields.empty()) {
    io.out << render_queue_format(*reply, fields, !o.noheader);
  } else {
    const std::string table = render_queue(*reply);
    io.out << (o.noheader ? table.substr(table.find('\n') + 1) : table);
  }
  return kExitOk;
}

std::optional<std::string> ask_cluster_name(const Transport& transport, const Output& io) {
  auto config = ask<wire::ConfigReply>(wire::ConfigQuery{}, transport, io);
  if (!config) return std::nullopt;
  for (const auto& e : config->entries) {
    if (e.key == "cluster.name") return e.value;
  }
  return std::string();
}

std::optional<wire::JobQueryReply> ask_all_pages(wire::JobQuery q, const Transport& transport,
                                                 const Output& io) {
  // The coordinator answers in pages; gather them into one listing.
  auto reply = ask<wire::JobQueryReply>(q, transport, io);
  if (!reply) return std::nullopt;
  while (reply->more && !reply->jobs.empty()) {
    q.after = reply->jobs.back().id;
    auto page = ask<wire::JobQueryReply>(q, transport, io);
    if (!page) return std::nullopt;
    reply->jobs.insert(reply->jobs.end(), std::make_move_iterator(page->jobs.begin()),
                       std::make_move_iterator(page->jobs.end()));
    reply->more = page->more;
    reply->now = page->now;
  }
  return reply;
}

int run_show_job(const std::string& id, JobDetailLayout layout, const Transport& transport,
                 const Output& io) {
  if (id.empty()) {
    // scontrol show job: every job the coordinator holds, waiting or running.
    if (layout != JobDetailLayout::kScontrol) return report_error(io, "show job needs a job id", kExitUsage);
    auto all = ask_all_pages(wire::JobQuery{}, transport, io);
    if (!all) return kExitFailure;
    // And those that ended in the last MinJobAge seconds, as Slurm keeps them listed.
    wire::JobQuery ended;
    ended.from_store = true;
    ended.include_finished = true;
    ended.ended_after = all->now - Duration::seconds(kMinJobAgeSeconds);
    auto recent = ask_all_pages(ended, transport, io);
    if (!recent) return kExitFailure;
    for (auto& j : recent->jobs) {
      const bool listed = std::any_of(all->jobs.begin(), all->jobs.end(),
                                      [&](const wire::JobView& v) { return v.id == j.id; });
      if (!listed) all->jobs.push_back(std::move(j));
    }
    std::stable_sort(all->jobs.begin(), all->jobs.end(), [](const wire::JobView& a, const wire::JobView& b) {
      return a.id.value() < b.id.value();
    });
    if (all->jobs.empty()) io.out << "No jobs in the system\n";
    for (auto& j : all->jobs) {
      to_scontrol_view(j);
      io.out << render_scontrol_job(j, all->now, [](std::uint32_t gid) { return group_name_from_file(gid); });
    }
    return kExitOk;
  }
  auto refs = parse_job_refs({id});
  if (!refs) return report_error(io, refs.error().message, kExitUsage);
  wire::JobQuery q;
  q.jobs = refs->jobs;
  // A task is asked for through its array (which answers with all its tasks), then picked.
  for (JobId a : refs->task_arrays) {
    if (std::find(q.jobs.begin(), q.jobs.end(), a) == q.jobs.end()) q.jobs.push_back(a);
  }
  q.include_finished = true;
  auto reply = ask<wire::JobQueryReply>(q, transport, io);
  if (!reply) return kExitFailure;
  if (!refs->task_arrays.empty()) {
    const auto named = [&](const wire::JobView& j) {
      for (std::size_t i = 0; i < refs->task_arrays.size(); ++i) {
        if (j.array_job == refs->task_arrays[i] && j.array_tasks == std::to_string(refs->task_indices[i]))
          return true;
      }
      return std::find(refs->jobs.begin(), refs->jobs.end(), j.id) != refs->jobs.end();
    };
    std::vector<wire::JobView> picked;
    for (const auto& j : reply->jobs) {
      if (named(j)) picked.push_back(j);
    }
    // A task not run yet is part of its array's waiting line: show that.
    if (picked.empty()) {
      for (const auto& j : reply->jobs) {
        if (j.array_job.value() != 0 && j.array_tasks.starts_with("[")) picked.push_back(j);
      }
    }
    reply->jobs = std::move(picked);
  }
  if (layout == JobDetailLayout::kScontrol) {
    for (wire::JobView& j : reply->jobs) to_scontrol_view(j);
  }
  if (reply->jobs.empty()) {
    if (layout != JobDetailLayout::kScontrol)
      return report_error(io, "job " + id + " not found", kExitFailure);
    io.err << "slurm_load_jobs error: Invalid job id specified\n";  // as scontrol words it
    return kExitFailure;
  }
  for (const auto& j : reply->jobs) {
    switch (layout) {
      case JobDetailLayout::kJson:
        io.out << job_json(j);
        break;
      case JobDetailLayout::kScontrol:
        io.out << render_scontrol_job(j, reply->now,
                                      [](std::uint32_t gid) { return group_name_from_file(gid); });
        break;
      case JobDetailLayout::kFairway:
        io.out << render_job_detail(j, reply->now);
        break;
    }
  }
  return kExitOk;
}

}  // namespace fairway::cli
