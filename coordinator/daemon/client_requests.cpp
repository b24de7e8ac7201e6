// CoordinatorService's client channel: who asks is proven, the per-user request limit and
// the read-only store are applied, and each request goes to the client API's function for
// it (client_submit, client_query, client_control, client_steps, the reports). Replies
// leave only after the turn commits.
#include "coordinator/daemon/client_control.h"
#include "coordinator/daemon/client_query.h"
#include "coordinator/daemon/client_steps.h"
#include "coordinator/daemon/client_submit.h"
#include "coordinator/daemon/cluster_reports.h"
#include "coordinator/daemon/config_report.h"
#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/reservation_report.h"
#include "coordinator/daemon/submit_checks.h"
#include "shared/base/log.h"
#include "shared/base/try.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {

// Who asks is proven before anything is read from the request: by MUNGE when the request
// comes wrapped in a credential, else by the kernel for a local client; the user names a
// request carries are never believed.
void CoordinatorService::on_client_frame(const std::string& peer, std::string_view frame, Time now,
                                         const std::optional<net::PeerCredentials>& kernel) {
  auto decoded = wire::decode(frame);
  if (!decoded) {
    ++counters_.bad_frames;
    error_reply(Channel::kClients, peer, decoded.error().code, decoded.error().message);
    return;
  }
  count_message(*decoded);
  auto refuse = [&](const Error& e) {
    ++counters_.unauthenticated;
    log_event(LogLevel::kWarning, "client_refused",
              {{"peer_uid", kernel ? std::to_string(kernel->uid) : ""}, {"error", e.message}});
    error_reply(Channel::kClients, peer, ErrorCode::kPermissionDenied,
                "unauthenticated request: " + e.message);
  };
  if (const auto* a = std::get_if<wire::AuthenticatedRequest>(&*decoded)) {
    auto caller = auth_->from_munge(a->credential, a->request);
    if (!caller) return refuse(caller.error());
    auto inner = wire::decode(a->request);
    if (!inner || std::holds_alternative<wire::AuthenticatedRequest>(*inner)) {
      ++counters_.bad_frames;
      error_reply(Channel::kClients, peer, ErrorCode::kInvalidArgument,
                  inner ? "an AuthenticatedRequest may not wrap another" : inner.error().message);
      return;
    }
    count_message(*inner);
    return serve_client(peer, *inner, *caller, now);
  }
  if (!kernel) {
    return refuse(Error{ErrorCode::kPermissionDenied,
                        "a client that is not on the coordinator's host must send a MUNGE "
                        "credential (is munged running there?)"});
  }
  auto caller = auth_->from_kernel(*kernel);
  if (!caller) return refuse(caller.error());
  serve_client(peer, *decoded, *caller, now);
}

void CoordinatorService::serve_client(const std::string& peer, const wire::Message& msg, const Caller& caller,
                                      Time now) {
  ServiceContext ctx = context();
  // Palmetto (seed 004) counts every request of a user, not only submissions: queries and
  // controls take a token from the same bucket (submissions take one per job below).
  // Root and admins are not limited, so that monitoring and recovery always get through.
  const bool submits =
      std::holds_alternative<wire::SubmitRequest>(msg) || std::holds_alternative<wire::SubmitBatch>(msg);
  if (!submits && !caller.admin && !rate_limiter_.try_take(caller.user, now)) {
    ++counters_.refused;
    ++counters_.rate_limited;
    const Error e = rate_limited(ctx, caller.user, "request", now);
    error_reply(Channel::kClients, peer, e.code, e.message);
    return;
  }
  const bool changes_state = submits || std::holds_alternative<wire::JobControl>(msg) ||
                             std::holds_alternative<wire::JobUpdate>(msg) ||
                             std::holds_alternative<wire::NodeControl>(msg);
  if (changes_state && probe_.read_only()) {
    ++counters_.refused;
    error_reply(Channel::kClients, peer, ErrorCode::kUnavailable,
                "the coordinator cannot write its job store (" + probe_.why() +
                    "): it accepts no new work and changes no job until it can; queries still work. "
                    "Nothing already accepted is lost.");
    return;
  }
  const auto answer = [&](const wire::Message& r) { reply(Channel::kClients, peer, r); };
  if (auto* m = std::get_if<wire::SubmitRequest>(&msg)) return answer(submit(ctx, *m, caller, now));
  if (auto* m = std::get_if<wire::SubmitBatch>(&msg)) return answer(submit_batch(ctx, *m, caller, now));
  if (auto* m = std::get_if<wire::JobQuery>(&msg)) return answer(job_query(ctx, *m, caller, now));
  if (auto* m = std::get_if<wire::JobControl>(&msg)) return answer(job_control(ctx, *m, caller, now));
  if (auto* m = std::get_if<wire::JobUpdate>(&msg)) return answer(job_update(ctx, *m, caller));
  if (auto* m = std::get_if<wire::NodeQuery>(&msg)) return answer(node_query(ctx, *m, caller));
  if (auto* m = std::get_if<wire::NodeControl>(&msg)) return answer(node_control(ctx, *m, caller, now));
  if (auto* m = std::get_if<wire::StepRequest>(&msg)) return answer(step_request(ctx, *m, caller, now));
  if (auto* m = std::get_if<wire::StepEnded>(&msg)) return answer(step_ended(ctx, *m, caller, now));
  const ReportSources sources{*scheduler_, registry_, counters_, now};
  if (std::holds_alternative<wire::MetricsQuery>(msg)) {
    return reply(Channel::kClients, peer,
                 metrics_report(sources, !config_.security.private_data || caller.admin));
  }
  // Anyone may read the settings, as anyone may run scontrol show config: none is secret.
  if (std::holds_alternative<wire::ConfigQuery>(msg))
    return reply(Channel::kClients, peer, config_report(config_, now));
  if (auto* m = std::get_if<wire::PartitionQuery>(&msg)) {
    auto r = partition_report(sources, *m);
    if (!r) return error_reply(Channel::kClients, peer, r.error().code, r.error().message);
    return reply(Channel::kClients, peer, *r);
  }
  if (auto* m = std::get_if<wire::ReservationQuery>(&msg)) {
    auto r = reservation_report(*scheduler_, *m, now);
    if (!r) return error_reply(Channel::kClients, peer, r.error().code, r.error().message);
    return reply(Channel::kClients, peer, *r);
  }
  if (auto* m = std::get_if<wire::SharesQuery>(&msg)) {
    // As sshare under PrivateData=usage: a user sees their own usage and their accounts'.
    const bool private_usage = config_.security.private_data && !caller.admin;
    return reply(Channel::kClients, peer,
                 shares_report(sources, *m,
                               private_usage || m->callers_own ? std::optional(caller.user) : std::nullopt));
  }
  ++counters_.bad_frames;
  error_reply(Channel::kClients, peer, ErrorCode::kInvalidArgument,
              "unexpected message " + std::string(wire::to_string(wire::message_type(msg))) +
                  " on the client channel");
}

}  // namespace fairway::daemon
