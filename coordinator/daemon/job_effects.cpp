// CoordinatorService carrying out a job's lifecycle effects (coordinator/core/
// job_lifecycle.h): the core decides how a job ends, this does the store, signals and mail.
#include "coordinator/daemon/coordinator_service.h"

#include "coordinator/daemon/job_mail.h"
#include "coordinator/daemon/job_nodes.h"
#include "coordinator/daemon/member_launches.h"
#include "shared/base/log.h"

namespace fairway::daemon {

using namespace fairway::lifecycle;  // the effects' names

bool CoordinatorService::on_job_event(JobId id, const JobEvent& event, Time now) {
  auto effects = scheduler_->on_event(id, event, now);
  if (!effects) return false;
  return carry_out(id, *effects, now);
}

bool CoordinatorService::carry_out(JobId id, const std::vector<JobEffect>& effects, Time now) {
  ServiceContext ctx = context();
  for (const JobEffect& effect : effects) {
    JobTracking& t = tracking_[id.value()];
    if (const auto* sig = std::get_if<Signal>(&effect)) {
      if (const JobRecord* rec = scheduler_->job(id)) signal_job(ctx, id, rec->allocation, sig->signal);
    } else if (const auto* why = std::get_if<SetReason>(&effect)) {
      (void)scheduler_->set_reason(id, why->reason);
    } else if (const auto* rq = std::get_if<Requeue>(&effect)) {
      const auto members = member_nodes(*scheduler_, id);  // the requeue frees them
      if (!write(scheduler_->requeue(id, now), "requeue", id)) return false;
      release_members(ctx, t, id, members, now);
      log_event(rq->lost ? LogLevel::kWarning : LogLevel::kInfo, "job_requeued",
                {{"job", id_str(id)}, {"reason", rq->reason}});
    } else if (std::holds_alternative<StopPreempted>(effect)) {
      const auto members = member_nodes(*scheduler_, id);  // a requeue frees them
      auto after = scheduler_->stop_preempted(id, now);
      if (!write(status_of(after), "stop_preempted", id)) return false;
      const JobRecord* rec = scheduler_->job(id);
      const std::string reason = rec != nullptr ? rec->reason : std::string();
      if (*after == JobState::kPending) {
        release_members(ctx, t, id, members, now);
        persist(id);
        log_event(LogLevel::kInfo, "job_requeued", {{"job", id_str(id)}, {"reason", reason}});
        notices_.about(id, kMailRequeue);
      } else {
        log_event(LogLevel::kInfo, "job_ended",
                  {{"job", id_str(id)}, {"state", "preempted"}, {"reason", reason}});
        mark_terminal(id, now);
      }
    } else if (const auto* e = std::get_if<Finish>(&effect)) {
      if (auto st = scheduler_->finish(id, e->state, now); !st) {
        if (e->reported)
          log_event(LogLevel::kError, "finish_failed", {{"job", id_str(id)}, {"error", st.error().message}});
        return false;
      }
      if (e->reported) {
        ++counters_.finished;
        const JobRecord* rec = scheduler_->job(id);
        const std::string code =
            rec != nullptr && rec->outcome.exit_code ? std::to_string(*rec->outcome.exit_code) : "-";
        log_event(LogLevel::kInfo, "job_ended",
                  {{"job", id_str(id)},
                   {"state", std::string(to_string(e->state))},
                   {"exit_code", code},
                   {"node", head_node(*scheduler_, id)}});
      } else {
        const JobRecord* rec = scheduler_->job(id);
        log_event(LogLevel::kWarning, "job_node_fail",
                  {{"job", id_str(id)}, {"reason", rec != nullptr ? rec->reason : std::string()}});
      }
    } else if (std::holds_alternative<Persist>(effect)) {
      persist(id);
    } else if (std::holds_alternative<MailRequeue>(effect)) {
      notices_.about(id, kMailRequeue);
    } else if (std::holds_alternative<Forget>(effect)) {
      mark_terminal(id, now);
    }
  }
  return true;
}

}  // namespace fairway::daemon
