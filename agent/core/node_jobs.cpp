#include "agent/core/node_jobs.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace fairway::agent {
namespace {

using P = NodeJobPhase;

// Every move a job may make here; anything else is a programming error.
constexpr std::array<std::pair<P, P>, 7> kTransitions{{
    {P::kLaunching, P::kWaitingForCores},  // CoresTaken while a job here is stopping
    {P::kWaitingForCores, P::kLaunching},  // cores came free (LaunchAsked, retry)
    {P::kLaunching, P::kRunning},          // LaunchDone ok
    {P::kRunning, P::kCompleting},         // ProcessExited with steps left
    {P::kRunning, P::kAwaitingAck},        // ProcessExited, nothing left
    {P::kCompleting, P::kAwaitingAck},     // StepsGone
    {P::kAwaitingAck, P::kLaunching},      // a new run before the Ack
}};

HostAction act(HostActionKind k, JobId job) {
  HostAction a;
  a.kind = k;
  a.job = job;
  return a;
}

void move_to(NodeJobs::Record& r, P to) {
  assert(node_job_transition_allowed(r.phase, to) || r.phase == to);
  r.phase = to;
}

}  // namespace

bool node_job_transition_allowed(NodeJobPhase from, NodeJobPhase to) {
  return std::find(kTransitions.begin(), kTransitions.end(), std::pair{from, to}) != kTransitions.end();
}

std::string_view to_string(NodeJobPhase p) {
  switch (p) {
    case P::kWaitingForCores:
      return "waiting_for_cores";
    case P::kLaunching:
      return "launching";
    case P::kRunning:
      return "running";
    case P::kCompleting:
      return "completing";
    case P::kAwaitingAck:
      return "awaiting_ack";
  }
  return "?";
}

const NodeJobs::Record* NodeJobs::find(JobId job) const {
  auto it = jobs_.find(job.value());
  return it == jobs_.end() ? nullptr : &it->second;
}

bool NodeJobs::any_stopping() const {
  return std::any_of(jobs_.begin(), jobs_.end(), [](const auto& kv) {
    return (kv.second.stopping && kv.second.phase == P::kRunning) || kv.second.phase == P::kCompleting;
  });
}

HostAction NodeJobs::report(JobId job, const Record& r, JobState state, std::string reason) const {
  HostAction a = act(HostActionKind::kReport, job);
  a.state = state;
  a.reason = std::move(reason);
  a.attempt = r.attempt;
  return a;
}

std::vector<HostAction> NodeJobs::apply(const NodeEvent& event, Time now) {
  return std::visit([&](const auto& e) { return on(e, now); }, event);
}

NodeJobs::Asked NodeJobs::what_is(const Record& r, const node_event::LaunchAsked& e) {
  // The held launch asked again: its cores, or the run before it, came free.
  if (e.retry) {
    return r.phase == P::kWaitingForCores || r.phase == P::kAwaitingAck ? Asked::kStartNow : Asked::kResend;
  }
  // The run waiting for this one's end (or an earlier one) asked again.
  if (r.next_run_deferred && e.attempt <= r.next_attempt) return Asked::kResend;
  // Every requeue raises the attempt (LaunchJob.restarts): a later one is a new run
  // whatever the phase, the same one is this run asked again while it is on its way.
  const bool newer = r.attempt && e.attempt > *r.attempt;
  switch (r.phase) {
    case P::kWaitingForCores:  // it never ran here: a new run takes its place
      return newer ? Asked::kStartNow : Asked::kResend;
    case P::kLaunching:  // the launched run's end must not be taken for the new run's
      return newer ? Asked::kAfterThisRun : Asked::kResend;
    case P::kRunning:
      return newer || r.stopping ? Asked::kAfterThisRun : Asked::kResend;
    case P::kCompleting:  // it is being stopped
      return Asked::kAfterThisRun;
    case P::kAwaitingAck:  // it ended
      return Asked::kStartNow;
  }
  return Asked::kResend;
}

std::vector<HostAction> NodeJobs::on(const node_event::LaunchAsked& e, Time) {
  auto it = jobs_.find(e.job.value());
  if (it != jobs_.end()) {
    Record& r = it->second;
    switch (what_is(r, e)) {
      case Asked::kResend:
        return {};
      case Asked::kAfterThisRun:
        // A new run while this one is being launched, runs or is being stopped (a requeue
        // that came back to this node): it starts once this one ended.
        r.next_run_deferred = true;
        r.next_attempt = e.attempt;
        r.next_extern_only = e.extern_only;
        return {};
      case Asked::kStartNow:
        break;
    }
  } else {
    it = jobs_.emplace(e.job.value(), Record{}).first;
  }
  Record& r = it->second;
  r.attempt = e.attempt;  // from here on its reports are about this run
  r.extern_only = e.extern_only;
  // A new run of a job whose earlier end is not acknowledged yet: that Ack must not clean
  // up this run's spool.
  r.final_seq = 0;
  if (r.phase != P::kLaunching) move_to(r, P::kLaunching);
  return {act(HostActionKind::kStartProcess, e.job)};
}

std::vector<HostAction> NodeJobs::on(const node_event::CoresTaken& e, Time) {
  auto it = jobs_.find(e.job.value());
  if (it == jobs_.end() || it->second.phase != P::kLaunching) return {};
  // The coordinator freed these cores with the end of a job still stopping here (a
  // multi-node job's other node, its steps in their grace): the launch waits for it.
  if (any_stopping()) {
    move_to(it->second, P::kWaitingForCores);
    return {};
  }
  std::vector<HostAction> out{
      report(e.job, it->second, JobState::kFailed, "node " + node_ + " refused the launch: " + e.why)};
  drop(it, out);  // its early steps go with it
  return out;
}

void NodeJobs::drop(std::map<std::uint64_t, Record>::iterator it, std::vector<HostAction>& out) {
  const JobId job(it->first);
  const bool deferred = it->second.next_run_deferred;
  jobs_.erase(it);
  // The run that waited for this one starts now: this one never ran.
  if (deferred) out.push_back(act(HostActionKind::kRetryLaunch, job));
}

std::vector<HostAction> NodeJobs::on(const node_event::LaunchDone& e, Time) {
  auto it = jobs_.find(e.job.value());
  if (it == jobs_.end() || it->second.phase != P::kLaunching) return {};
  Record& r = it->second;
  std::vector<HostAction> out;
  if (!e.ok) {
    // Its cores, GPUs and cgroup are free again, and the user learns why (show job).
    out.push_back(act(HostActionKind::kReleaseCores, e.job));
    out.push_back(act(HostActionKind::kRemoveCgroup, e.job));
    out.push_back(report(e.job, r, JobState::kFailed, "launch failed on node " + node_ + ": " + e.error));
    drop(it, out);
    return out;
  }
  move_to(r, P::kRunning);
  if (!r.extern_only) out.push_back(report(e.job, r, JobState::kRunning));
  if (r.signal_while_launching) {
    // The coordinator stopped it while it was being launched: it stops now, as one stopped
    // while it ran, so that a requeued run coming back here waits for this run's end
    // instead of being taken for a resend, and a launch wanting its cores waits for them.
    r.stopping = true;
    HostAction s = act(HostActionKind::kSignal, e.job);
    s.signal = r.signal_while_launching->first;
    s.grace = r.signal_while_launching->second;
    out.push_back(s);
    r.signal_while_launching.reset();
  }
  for (std::int32_t step : std::exchange(r.steps_before_start, {})) {
    HostAction s = act(HostActionKind::kStartStep, e.job);
    s.step = step;
    out.push_back(s);
  }
  return out;
}

std::vector<HostAction> NodeJobs::on(const node_event::Readopted& e, Time) {
  Record r;
  r.phase = e.ended ? P::kAwaitingAck : P::kRunning;
  r.attempt = e.attempt;
  r.extern_only = e.extern_only;
  jobs_.insert_or_assign(e.job.value(), std::move(r));
  return {};
}

std::vector<HostAction> NodeJobs::on(const node_event::StepArrived& e, Time) {
  auto it = jobs_.find(e.job.value());
  HostAction a = act(HostActionKind::kRefuseStep, e.job);
  a.step = e.step;
  if (it == jobs_.end()) return {a};
  Record& r = it->second;
  switch (r.phase) {
    case P::kWaitingForCores:
    case P::kLaunching:
      r.steps_before_start.push_back(e.step);
      return {};
    case P::kRunning:
      a.kind = HostActionKind::kStartStep;
      return {a};
    case P::kCompleting:
    case P::kAwaitingAck:
      return {a};
  }
  return {a};
}

std::vector<HostAction> NodeJobs::on(const node_event::KillAsked& e, Time) {
  auto it = jobs_.find(e.job.value());
  if (it == jobs_.end()) return {};
  Record& r = it->second;
  std::vector<HostAction> out;
  if (std::exchange(r.next_run_deferred, false) && !r.next_extern_only) {
    // The coordinator's stops for the run here came before the new run's launch: this one
    // is for the new run, which is stopped before it started here (a cancel must not be
    // lost to the wait). The run here, being stopped already, hears it again.
    HostAction cancelled =
        report(e.job, r, JobState::kCancelled, "stopped before it started on node " + node_);
    cancelled.attempt = r.next_attempt;
    out.push_back(std::move(cancelled));
  }
  switch (r.phase) {
    case P::kLaunching:
      // Sent once it runs: a cancel must not be lost to a slow launch.
      r.signal_while_launching = std::pair{e.signal, e.grace};
      break;
    case P::kWaitingForCores:
      // Stopped before its cores came free: it never ran here.
      if (!r.extern_only) {
        out.push_back(report(e.job, r, JobState::kCancelled, "stopped before it started on node " + node_));
      }
      jobs_.erase(it);  // its early steps go with it
      break;
    case P::kRunning:
    case P::kCompleting: {
      r.stopping = true;
      HostAction s = act(HostActionKind::kSignal, e.job);
      s.signal = e.signal;
      s.grace = e.grace;
      out.push_back(s);
      break;
    }
    case P::kAwaitingAck:
      break;  // already ended; its report is on its way
  }
  return out;
}

std::vector<HostAction> NodeJobs::on(const node_event::ProcessExited& e, Time) {
  auto it = jobs_.find(e.job.value());
  if (it == jobs_.end() || it->second.phase != P::kRunning) return {};
  Record& r = it->second;
  r.final_state = e.state;
  if (e.steps_left) {
    move_to(r, P::kCompleting);
    return {};
  }
  return end(e.job, r);
}

std::vector<HostAction> NodeJobs::on(const node_event::StepsGone& e, Time) {
  auto it = jobs_.find(e.job.value());
  if (it == jobs_.end() || it->second.phase != P::kCompleting) return {};
  return end(e.job, it->second);
}

std::vector<HostAction> NodeJobs::end(JobId job, Record& r) {
  std::vector<HostAction> out{act(HostActionKind::kRemoveCgroup, job),
                              act(HostActionKind::kReleaseCores, job)};
  const bool deferred = std::exchange(r.next_run_deferred, false);
  r.stopping = false;
  move_to(r, P::kAwaitingAck);
  if (r.extern_only) {
    // It only held the job's cgroup here: the job's end is its first node's to report.
    out.push_back(act(HostActionKind::kForgetJob, job));
    jobs_.erase(job.value());
  } else {
    out.push_back(report(job, r, r.final_state));
  }
  if (deferred) out.push_back(act(HostActionKind::kRetryLaunch, job));
  for (const auto& [id, w] : jobs_) {
    if (w.phase == P::kWaitingForCores) out.push_back(act(HostActionKind::kRetryLaunch, JobId(id)));
  }
  return out;
}

std::vector<HostAction> NodeJobs::on(const node_event::Reported& e, Time) {
  auto it = jobs_.find(e.job.value());
  if (it != jobs_.end() && it->second.phase == P::kAwaitingAck) it->second.final_seq = e.seq;
  return {};
}

std::vector<HostAction> NodeJobs::on(const node_event::AckReceived& e, Time) {
  for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
    if (it->second.phase != P::kAwaitingAck || it->second.final_seq != e.seq || e.seq == 0) continue;
    const JobId job(it->first);
    jobs_.erase(it);
    return {act(HostActionKind::kForgetJob, job)};
  }
  return {};
}

}  // namespace fairway::agent
