// CoordinatorService's answer to `fairway queue` and `show job` (JobQuery): waiting and
// running jobs from the core, finished ones from the kept views, an array's waiting tasks
// folded into one line, filtered on the records before any view is built.
#include <algorithm>
#include <unordered_set>

#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/job_views.h"

namespace fairway::daemon {

void CoordinatorService::on_job_query(const std::string& peer, const wire::JobQuery& m,
                                      const Caller& caller, Time now) {
  if (m.from_store) return on_history_query(peer, m, caller, now);
  // [security] private_data: a user sees only their own jobs, as if no others existed.
  const bool own_only = config_.security.private_data && !caller.admin;
  // Filter on the records first and build views only for the page sent: a query over a
  // deep queue costs a scan, not a view per job.
  struct Match {
    JobId id;
    const JobRecord* live;          // waiting or running: viewed from the core
    const wire::JobView* finished;  // terminal: the kept view
    const ArrayJob* array = nullptr;  // an array's line for its waiting tasks
    std::int32_t task_index = -1;     // with expand_arrays: the one waiting task it stands for
  };
  // The arrays' lines cost a walk of the queue and of their waiting indices: only when the
  // query can show one (not for `show job 42` of a plain job, which --wait polls).
  const bool names_an_array = std::any_of(m.jobs.begin(), m.jobs.end(), [&](JobId id) {
    const auto t = tracking_.find(id.value());
    return t != tracking_.end() && t->second.array;
  });
  const ArrayLines array_lines = m.jobs.empty() || names_an_array ? waiting_array_lines() : ArrayLines{};
  auto wanted = [&](const std::string& user, const std::string& partition, JobState state) {
    if (!m.user.empty() && user != m.user) return false;
    if (!m.partition.empty() && partition != m.partition) return false;
    if (!m.states.empty()) return std::find(m.states.begin(), m.states.end(), state) != m.states.end();
    return !is_terminal(state) || m.include_finished || !m.jobs.empty();
  };
  std::vector<Match> matches;
  auto consider = [&](JobId id) {
    auto t = tracking_.find(id.value());
    if (t == tracking_.end()) return;
    if (const ArrayJob* a = scheduler_->array(id)) {
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
    const JobRecord* rec = scheduler_->job(id);
    if (rec != nullptr && !is_terminal(rec->state)) {
      if (own_only && !owns(caller, rec->spec)) return;
      if (wanted(rec->spec.user, rec->spec.partition, rec->state)) matches.push_back({id, rec, nullptr});
    } else if (const auto& v = t->second.final_view; v && wanted(v->user, v->partition, v->state)) {
      if (own_only && v->user != caller.user) return;
      matches.push_back({id, nullptr, &*v});
    }
  };
  if (!m.jobs.empty()) {
    for (JobId id : m.jobs) consider(id);
    // An array's id names all its tasks too, as squeue -j and scontrol show job read it.
    std::unordered_set<std::uint64_t> asked;
    for (JobId id : m.jobs) {
      if (auto t = tracking_.find(id.value()); t != tracking_.end() && t->second.array) asked.insert(id.value());
    }
    if (!asked.empty()) {
      for (const auto& [id, t] : tracking_) {
        const JobRecord* rec = scheduler_->job(JobId(id));
        const JobId array = rec != nullptr ? rec->spec.array_job : t.final_view ? t.final_view->array_job : JobId();
        if (array.value() != 0 && asked.contains(array.value())) consider(JobId(id));
      }
    }
  } else {
    for (const JobRecord* rec : scheduler_->waiting()) consider(rec->spec.id);
    for (const JobRecord* rec : scheduler_->running()) consider(rec->spec.id);
    for (const auto& [id, line] : array_lines) consider(JobId(id));
    if (m.include_finished || !m.states.empty()) {
      for (std::uint64_t id : finished_order_) consider(JobId(id));
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
        r.jobs.push_back(array_view(*it->array, tracking_.at(array), *scheduler_, line.indices, line.why));
        continue;
      }
      // One waiting task on its own line (squeue -r): the array's view, under the task's id.
      const std::int32_t index = it->task_index;
      wire::JobView v = array_view(*it->array, tracking_.at(array), *scheduler_, std::span(&index, 1), line.why);
      v.id = it->id;
      v.array_tasks = std::to_string(index);
      r.jobs.push_back(std::move(v));
      continue;
    }
    if (it->live == nullptr) {
      r.jobs.push_back(*it->finished);
      continue;
    }
    r.jobs.push_back(job_view(*it->live, tracking_.at(it->id.value()), *scheduler_));
    show_stop_in_progress(r.jobs.back(), *it->live, now);
  }
  r.more = it != matches.end();
  // show job of one waiting job: beside the start planned by prediction, the start were
  // every job planned by its limit (a what-if pass on a copy: for one job only).
  if (config_.scheduler.runtime_prediction != RuntimePrediction::kNone && m.jobs.size() == 1 &&
      r.jobs.size() == 1 && is_waiting(r.jobs[0].state) && r.jobs[0].array_tasks.empty()) {
    r.jobs[0].estimated_start_by_limit = scheduler_->estimate_start_by_limit(r.jobs[0].id, now);
  }
  if (m.with_steps) {
    if (auto st = attach_steps(r.jobs); !st) {
      return error_reply(Channel::kClients, peer, ErrorCode::kIo, "cannot read the job steps: " + st.error().message);
    }
  }
  reply(Channel::kClients, peer, r);
}

}  // namespace fairway::daemon
