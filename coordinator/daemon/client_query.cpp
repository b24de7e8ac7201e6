#include "coordinator/daemon/client_query.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "coordinator/core/start_estimate.h"
#include "coordinator/daemon/client_access.h"
#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/job_translation.h"
#include "coordinator/daemon/job_views.h"
#include "shared/base/try.h"

namespace fairway::daemon {
namespace {

// `history`: finished jobs read from the store, however long ago they ended (the daemon
// keeps views of only the latest in memory). Filters the SQL cannot apply (state,
// account, partition) are applied to each row's decoded request, page by page.
constexpr std::size_t kRowsPerRead = 512;

struct ArrayLine {
  std::vector<std::int32_t> indices;  // ascending
  PendingExplanation why;
};
using ArrayLines = std::unordered_map<std::uint64_t, ArrayLine>;

// Per array, the waiting tasks its queue line stands for: a task gets its own line once it
// runs or is acted on alone (and so has tracking of its own).
ArrayLines waiting_array_lines(const ServiceContext& ctx) {
  ArrayLines lines;
  if (ctx.scheduler.arrays().empty()) return lines;
  // Tasks made for the pass but not run nor acted on alone still count as the array's.
  for (const JobRecord* j : ctx.scheduler.waiting()) {
    if (!j->spec.is_array_task() || ctx.tracking.contains(j->spec.id.value()) || !is_waiting(j->state))
      continue;
    ArrayLine& line = lines[j->spec.array_job.value()];
    if (line.indices.empty()) line.why = j->why;
    line.indices.push_back(j->spec.array_task);
  }
  for (const auto& [id, a] : ctx.scheduler.arrays()) {
    if (a.unsplit.empty() && !lines.contains(id)) continue;
    ArrayLine& line = lines[id];
    if (line.indices.empty()) line.why = a.prototype.why;
    for (const auto& [begin, end] : a.unsplit.intervals()) {
      for (std::int64_t p = begin; p < end; ++p) line.indices.push_back(a.prototype.spec.array.index_at(p));
    }
    std::sort(line.indices.begin(), line.indices.end());
  }
  return lines;
}

wire::Message history_query(const ServiceContext& ctx, const wire::JobQuery& m, const Caller& caller,
                            Time now) {
  wire::JobQueryReply r;
  r.now = now;
  std::string user = m.user;
  // [security] private_data: a user's history is their own jobs, as in `queue`.
  if (ctx.config.security.private_data && !caller.admin) {
    if (!user.empty() && user != caller.user) return r;
    user = caller.user;
  }
  const std::size_t limit = m.limit > 0 ? std::min<std::size_t>(m.limit, kJobQueryPage) : kJobQueryPage;
  JobId after = m.after;
  JobId last_wanted;
  if (!m.jobs.empty()) {
    // Only these ids: start just below the smallest, stop after the largest.
    const auto [lo, hi] = std::minmax_element(m.jobs.begin(), m.jobs.end());
    if (lo->value() > 1 && JobId(lo->value() - 1) > after) after = JobId(lo->value() - 1);
    last_wanted = *hi;
  }
  std::vector<JobId> arrays_named;  // arrays asked for by id: their tasks are listed
  bool exhausted = false;
  while (r.jobs.size() < limit && !exhausted) {
    auto rows = ctx.store.load_finished(after, kRowsPerRead, user, m.ended_after, m.ended_before);
    if (!rows)
      return wire::ErrorReply{ErrorCode::kIo, "cannot read the job history: " + rows.error().message};
    exhausted = rows->size() < kRowsPerRead;
    for (const StoredJob& row : *rows) {
      after = row.id;
      // Named by -j: the row itself, or (when it is an array's) its tasks after it.
      bool named = false;
      if (!m.jobs.empty()) {
        if (row.id > last_wanted) {
          exhausted = true;
          break;
        }
        named = std::find(m.jobs.begin(), m.jobs.end(), row.id) != m.jobs.end();
        if (!named && arrays_named.empty()) continue;
      }
      const bool state_ok =
          m.states.empty() || std::find(m.states.begin(), m.states.end(), row.state) != m.states.end();
      if (!state_ok && !named) continue;  // before decoding: the common filter stays cheap
      auto decoded = decode_stored_request(row.request);
      if (!decoded) continue;
      const wire::SubmitRequest* req =
          &*decoded;  // recovery refuses a store with such a row; none is written since
      if (!req->spec.array.empty()) {
        // An array's own row: its tasks are the jobs. Named by id, as `sacct -j A`, it
        // stands for its tasks, whose ids follow it (A + 1 + position).
        if (named) {
          arrays_named.push_back(row.id);
          last_wanted = std::max(last_wanted,
                                 JobId(row.id.value() + static_cast<std::uint64_t>(req->spec.array.count())));
        }
        continue;
      }
      if (!state_ok) continue;
      if (!m.jobs.empty() && !named &&
          std::find(arrays_named.begin(), arrays_named.end(), req->spec.array_job) == arrays_named.end()) {
        continue;
      }
      const RowJob job = from_row(row, *req);
      if (!m.account.empty() && job.record.spec.account != m.account) continue;
      if (!m.partition.empty() && job.record.spec.partition != m.partition) continue;
      r.jobs.push_back(job_view(job.record, job.tracking, ctx.scheduler, row.allocation));
      if (r.jobs.size() == limit) break;
    }
  }
  if (auto st = attach_steps(ctx.store, r.jobs); !st) {
    return wire::ErrorReply{ErrorCode::kIo, "cannot read the job steps: " + st.error().message};
  }
  // A full page may have more behind it; the client asks again from its last id.
  r.more = r.jobs.size() == limit && !exhausted;
  r.total = r.jobs.size();
  return r;
}

}  // namespace

wire::Message job_query(const ServiceContext& ctx, const wire::JobQuery& m, const Caller& caller, Time now) {
  if (m.from_store) return history_query(ctx, m, caller, now);
  // [security] private_data: a user sees only their own jobs, as if no others existed.
  const bool own_only = ctx.config.security.private_data && !caller.admin;
  // Filter on the records first and build views only for the page sent: a query over a
  // deep queue costs a scan, not a view per job.
  struct Match {
    JobId id;
    const JobRecord* live;            // waiting or running: viewed from the core
    const wire::JobView* finished;    // terminal: the kept view
    const ArrayJob* array = nullptr;  // an array's line for its waiting tasks
    std::int32_t task_index = -1;     // with expand_arrays: the one waiting task it stands for
  };
  // The arrays' lines cost a walk of the queue and of their waiting indices: only when the
  // query can show one (not for `show job 42` of a plain job, which --wait polls).
  // An array's id, live or ended: a query naming it names its tasks.
  const auto is_array = [&](JobId id) {
    if (const auto t = ctx.tracking.find(id.value()); t != ctx.tracking.end()) return t->second.array;
    const FinishedJob* ended = ctx.finished.find(id);
    return ended != nullptr && ended->array;
  };
  const bool names_an_array = std::any_of(m.jobs.begin(), m.jobs.end(), is_array);
  const ArrayLines array_lines = m.jobs.empty() || names_an_array ? waiting_array_lines(ctx) : ArrayLines{};
  auto wanted = [&](const std::string& user, const std::string& partition, JobState state) {
    if (!m.user.empty() && user != m.user) return false;
    if (!m.partition.empty() && partition != m.partition) return false;
    if (!m.states.empty()) return std::find(m.states.begin(), m.states.end(), state) != m.states.end();
    return !is_terminal(state) || m.include_finished || !m.jobs.empty();
  };
  std::vector<Match> matches;
  auto consider = [&](JobId id) {
    // Waiting or running jobs (and live arrays) have tracking; ended ones, a kept view.
    const FinishedJob* ended = ctx.finished.find(id);
    if (!ctx.tracking.contains(id.value()) && ended == nullptr) return;
    if (const ArrayJob* a = ctx.scheduler.array(id)) {
      if (!array_lines.contains(id.value())) return;  // every task runs or ran on its own
      if (own_only && !owns(caller, a->prototype.spec)) return;
      const JobState state = a->held ? JobState::kHeld : JobState::kPending;
      if (!wanted(a->prototype.spec.user, a->prototype.spec.partition, state)) return;
      if (!m.expand_arrays) {
        matches.push_back({id, nullptr, nullptr, a});
        return;
      }
      const ArraySpec& shape = a->prototype.spec.array;
      for (std::int32_t index : array_lines.at(id.value()).indices) {
        matches.push_back({a->task_id(*shape.position_of(index)), nullptr, nullptr, a, index});
      }
      return;
    }
    const JobRecord* rec = ctx.scheduler.job(id);
    if (rec != nullptr && !is_terminal(rec->state)) {
      if (own_only && !owns(caller, rec->spec)) return;
      if (wanted(rec->spec.user, rec->spec.partition, rec->state)) matches.push_back({id, rec, nullptr});
    } else if (ended != nullptr && ended->view) {
      const wire::JobView& v = *ended->view;
      if (!wanted(v.user, v.partition, v.state)) return;
      if (own_only && v.user != caller.user) return;
      matches.push_back({id, nullptr, &v});
    }
  };
  if (!m.jobs.empty()) {
    for (JobId id : m.jobs) consider(id);
    // An array's id names all its tasks too, as squeue -j and scontrol show job read it.
    std::unordered_set<std::uint64_t> asked;
    for (JobId id : m.jobs) {
      if (is_array(id)) asked.insert(id.value());
    }
    if (!asked.empty()) {
      for (const auto& [id, t] : ctx.tracking) {
        const JobRecord* rec = ctx.scheduler.job(JobId(id));
        const JobId array = rec != nullptr ? rec->spec.array_job : JobId();
        if (array.value() != 0 && asked.contains(array.value())) consider(JobId(id));
      }
      for (const auto& [id, ended] : ctx.finished.kept()) {
        const JobId array = ended.view ? ended.view->array_job : JobId();
        if (array.value() != 0 && asked.contains(array.value())) consider(JobId(id));
      }
    }
  } else {
    for (const JobRecord* rec : ctx.scheduler.waiting()) consider(rec->spec.id);
    for (const JobRecord* rec : ctx.scheduler.running()) consider(rec->spec.id);
    for (const auto& [id, line] : array_lines) consider(JobId(id));
    if (m.include_finished || !m.states.empty()) {
      for (std::uint64_t id : ctx.finished.order()) consider(JobId(id));
    }
  }
  std::sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) { return a.id < b.id; });
  matches.erase(std::unique(matches.begin(), matches.end(),
                            [](const Match& a, const Match& b) { return a.id == b.id; }),
                matches.end());

  wire::JobQueryReply r;
  r.now = now;
  r.total = matches.size();
  const std::size_t limit = m.limit > 0 ? std::min<std::size_t>(m.limit, kJobQueryPage) : kJobQueryPage;
  auto it = std::upper_bound(matches.begin(), matches.end(), m.after,
                             [](JobId after, const Match& x) { return after < x.id; });
  for (; it != matches.end() && r.jobs.size() < limit; ++it) {
    if (it->array != nullptr) {
      const std::uint64_t array = it->array->id().value();
      const ArrayLine& line = array_lines.at(array);
      if (it->task_index < 0) {
        r.jobs.push_back(
            array_view(*it->array, ctx.tracking.at(array), ctx.scheduler, line.indices, line.why));
        continue;
      }
      // One waiting task on its own line (squeue -r): the array's view, under the task's id.
      const std::int32_t index = it->task_index;
      wire::JobView v =
          array_view(*it->array, ctx.tracking.at(array), ctx.scheduler, std::span(&index, 1), line.why);
      v.id = it->id;
      v.array_tasks = std::to_string(index);
      r.jobs.push_back(std::move(v));
      continue;
    }
    if (it->live == nullptr) {
      r.jobs.push_back(*it->finished);
      continue;
    }
    r.jobs.push_back(job_view(*it->live, ctx.tracking.at(it->id.value()), ctx.scheduler));
    show_stop_in_progress(r.jobs.back(), *it->live, now);
  }
  r.more = it != matches.end();
  // show job of one waiting job: beside the start planned by prediction, the start were
  // every job planned by its limit (a what-if pass on a copy: for one job only).
  if (ctx.config.scheduler.runtime_prediction != RuntimePrediction::kNone && m.jobs.size() == 1 &&
      r.jobs.size() == 1 && is_waiting(r.jobs[0].state) && r.jobs[0].array_tasks.empty()) {
    r.jobs[0].estimated_start_by_limit = estimate_start_by_limit(ctx.scheduler, r.jobs[0].id, now);
  }
  if (m.with_steps) {
    if (auto st = attach_steps(ctx.store, r.jobs); !st) {
      return wire::ErrorReply{ErrorCode::kIo, "cannot read the job steps: " + st.error().message};
    }
  }
  return r;
}

wire::Message node_query(const ServiceContext& ctx, const wire::NodeQuery& m, const Caller& caller) {
  // Under private_data a user sees only their own jobs on a node, as in `queue`.
  const bool own_only = ctx.config.security.private_data && !caller.admin;
  std::map<std::uint32_t, std::vector<JobId>> jobs_on;
  for (const JobRecord* rec : ctx.scheduler.running()) {
    if (own_only && !owns(caller, rec->spec)) continue;
    for (const auto& na : rec->allocation.nodes) jobs_on[na.node.value()].push_back(rec->spec.id);
  }
  for (const std::string& name : m.nodes) {
    if (ctx.registry.find(name) == nullptr) {
      return wire::ErrorReply{ErrorCode::kNotFound, "node '" + name + "' does not exist"};
    }
  }
  wire::NodeQueryReply r;
  for (const NodeEntry& n : ctx.registry.nodes()) {
    if (!m.nodes.empty() && std::find(m.nodes.begin(), m.nodes.end(), n.name) == m.nodes.end()) continue;
    r.nodes.push_back(node_view(n, ctx.scheduler.cluster(), jobs_on[n.index.value()]));
  }
  return r;
}

Status attach_steps(const JobStore& store, std::vector<wire::JobView>& jobs) {
  if (jobs.empty()) return ok_status();
  std::unordered_map<std::uint64_t, wire::JobView*> by_id;
  for (wire::JobView& j : jobs) by_id[j.id.value()] = &j;
  const auto add = [&](const std::vector<StoredStep>& steps) {
    for (const StoredStep& s : steps) {
      auto j = by_id.find(s.job.value());
      if (j == by_id.end()) continue;
      j->second->steps.push_back(wire::StepView{s.step, s.name, s.state, s.start_time, s.end_time,
                                                s.exit_code, s.signal, s.ntasks, s.nodes, s.max_rss_kb,
                                                s.cpu_us});
    }
  };
  const auto [lo, hi] =
      std::minmax_element(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  // One read for a page of neighbouring ids; a sparse page (one user's jobs over years)
  // reads job by job rather than every step in between.
  if (hi->id.value() - lo->id.value() <= 4 * jobs.size()) {
    FAIRWAY_TRY_ASSIGN(steps, store.load_steps(lo->id, hi->id));
    add(steps);
    return ok_status();
  }
  for (const auto& [id, view] : by_id) {
    FAIRWAY_TRY_ASSIGN(steps, store.load_steps(JobId(id), JobId(id)));
    add(steps);
  }
  return ok_status();
}

}  // namespace fairway::daemon
