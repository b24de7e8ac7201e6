#include "coordinator/daemon/client_submit.h"

#include "coordinator/core/start_estimate.h"
#include "coordinator/daemon/client_access.h"
#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/submit_checks.h"
#include "shared/base/log.h"
#include "shared/base/try.h"

namespace fairway::daemon {
namespace {

Result<JobId> accept_submit(ServiceContext& ctx, const wire::SubmitRequest& m, const Caller& caller,
                            Time now) {
  const std::string& user = caller.user;
  FAIRWAY_TRY(check_named_user(m, caller));
  // A retried submit (the reply was lost) gets the job the first attempt made.
  if (auto first = ctx.tokens.find(user, m.client_token, now)) return *first;
  FAIRWAY_TRY(check_submission(ctx, m, caller, now));
  if (!ctx.service.ensure_txn()) return make_error(ErrorCode::kIo, "the job store is unavailable");
  // A job array takes its own id and one per task (task ids follow the array's).
  const std::uint64_t ids = 1 + static_cast<std::uint64_t>(m.spec.array.count());
  FAIRWAY_TRY_ASSIGN(id, ctx.store.allocate_job_id(ids));

  wire::SubmitRequest stored = m;
  stored.spec = submission_spec(ctx.config, m, caller, now);
  stored.spec.id = id;
  if (auto st = check_account(ctx.config, stored.spec.account, user, caller); !st) {
    ctx.store.return_job_id(id, ids);
    return std::unexpected(st.error());
  }
  if (auto st = ctx.scheduler.submit(stored.spec, now, access_groups(ctx.config, caller.user, caller.gid));
      !st) {
    // The core names the job by the id it would have had; a refused job has none.
    ctx.store.return_job_id(id, ids);
    Error e = st.error();
    const std::string prefix = "job " + std::to_string(id.value()) + ": ";
    if (e.message.starts_with(prefix)) e.message.erase(0, prefix.size());
    return std::unexpected(e);
  }
  // The core may have filled in the partition and QOS defaults: store what it decided.
  const JobRecord* admitted = ctx.scheduler.job(id);
  stored.spec = admitted != nullptr ? admitted->spec : ctx.scheduler.array(id)->prototype.spec;

  StoredJob s;
  s.id = id;
  s.user = user;
  s.client_token = m.client_token;
  s.request = encode_stored_request(stored);
  s.state = stored.spec.hold ? JobState::kHeld : JobState::kPending;
  s.submit_time = now;
  if (auto st = ctx.store.insert_job(s); !st) {
    (void)ctx.scheduler.cancel(id, now);
    ctx.scheduler.forget(id);
    return std::unexpected(st.error());
  }
  JobTracking& t = ctx.tracking[id.value()];
  t.array = !stored.spec.array.empty();
  t.working_dir = m.program.working_dir;
  t.stdout_path = m.program.stdout_path;
  t.stderr_path = m.program.stderr_path;
  ctx.tokens.remember(user, m.client_token, id, now);
  ++ctx.counters.submitted;
  ctx.service.changed();
  log_event(LogLevel::kInfo, "job_submitted",
            {{"job", id_str(id)},
             {"user", user},
             {"partition", stored.spec.partition},
             {"cores", std::to_string(stored.spec.resources.total_cores())}});
  if (!stored.spec.array.empty()) {
    log_event(LogLevel::kInfo, "array_submitted",
              {{"job", id_str(id)}, {"tasks", format_array_spec(stored.spec.array)}});
  }
  return id;
}

// sbatch --test-only: checked as a submission, planned by the core, never queued.
Result<wire::SubmitReply> estimate_submit(ServiceContext& ctx, const wire::SubmitRequest& m,
                                          const Caller& caller, Time now) {
  FAIRWAY_TRY(check_named_user(m, caller));
  FAIRWAY_TRY(check_submission(ctx, m, caller, now));
  JobSpec spec = submission_spec(ctx.config, m, caller, now);
  // An array: when its first task would start.
  spec.array = {};
  FAIRWAY_TRY(check_account(ctx.config, spec.account, caller.user, caller));
  FAIRWAY_TRY_ASSIGN(estimate, estimate_start(ctx.scheduler, std::move(spec), now,
                                              access_groups(ctx.config, caller.user, caller.gid)));
  wire::SubmitReply r;
  r.test_only = true;
  r.estimated_start = estimate.start;
  r.partition = estimate.partition;
  r.cores = estimate.allocation.total_cores();
  for (const NodeAllocation& na : estimate.allocation.nodes) {
    r.nodes.push_back(ctx.scheduler.cluster().node(na.node).topology.name);
  }
  if (!estimate.start) r.reason = estimate.why.codes();
  log_event(LogLevel::kInfo, "submit_estimated",
            {{"user", caller.user},
             {"partition", r.partition},
             {"start", r.estimated_start ? std::to_string(r.estimated_start->seconds()) : "none"}});
  return r;
}

}  // namespace

wire::Message submit(ServiceContext& ctx, const wire::SubmitRequest& m, const Caller& caller, Time now) {
  if (m.test_only) {
    auto estimate = estimate_submit(ctx, m, caller, now);
    if (!estimate) return error_message(estimate.error());
    return *estimate;
  }
  auto id = accept_submit(ctx, m, caller, now);
  if (!id) {
    ++ctx.counters.refused;
    log_event(LogLevel::kInfo, "submit_refused", {{"user", caller.user}, {"error", id.error().message}});
    return error_message(id.error());
  }
  return wire::SubmitReply{.job = *id};
}

wire::Message submit_batch(ServiceContext& ctx, const wire::SubmitBatch& m, const Caller& caller, Time now) {
  wire::SubmitBatchReply r;
  r.results.reserve(m.requests.size());
  for (const auto& req : m.requests) {
    if (req.test_only) {
      r.results.push_back(
          {std::nullopt, "--test-only is answered for one submission at a time, not in a batch"});
      continue;
    }
    auto id = accept_submit(ctx, req, caller, now);
    if (id) {
      r.results.push_back({*id, {}});
    } else {
      ++ctx.counters.refused;
      r.results.push_back({std::nullopt, id.error().message});
    }
  }
  return r;
}

}  // namespace fairway::daemon
