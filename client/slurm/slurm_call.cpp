#include "client/slurm/slurm_call.h"

#include <ctime>
#include <functional>

#include "client/api/coordinator_transport.h"
#include "client/api/terminal_replies.h"
#include "client/fairway/priority_command.h"
#include "client/fairway/queue_iterate.h"
#include "client/fairway/report_commands.h"
#include "client/fairway/submit_command.h"
#include "client/fairway/update_command.h"
#include "client/views/fairway/reservation_views.h"

namespace fairway::cli {

int run_slurm_call(const SlurmCall& call, const Output& io) {
  if (const auto* submit = std::get_if<SlurmSubmitCall>(&call)) {
    auto ctx = current_submit_context();
    if (!ctx) return report_error(io, ctx.error().message, kExitFailure);
    CoordinatorTransport submit_transport(
        endpoint_sources_from_environment(submit->command.coordinator, submit->command.config));
    return run_submit(submit->command, *ctx, std::ref(submit_transport), io);
  }
  CoordinatorTransport transport(endpoint_sources_from_environment(std::nullopt, std::nullopt));
  // Text views get replies with control characters escaped; JSON stays exact (as fairway's).
  const auto through = [&](bool json) {
    return json ? Transport(std::ref(transport)) : escaping_replies(std::ref(transport));
  };
  if (const auto* queue = std::get_if<SlurmQueueCall>(&call)) {
    return run_queue_iterating(queue->options, queue->iterate_s, through(queue->options.json), io);
  }
  if (const auto* history = std::get_if<SlurmHistoryCall>(&call)) {
    const Time now = Time::from_seconds(static_cast<std::int64_t>(std::time(nullptr)));
    return run_history(history->options, now, through(history->options.json), io);
  }
  if (const auto* nodes = std::get_if<SlurmNodesCall>(&call)) {
    const Transport t = through(nodes->json);
    if (!nodes->layout.format.empty()) return run_node_layout(nodes->layout, t, io);
    return run_nodes(nodes->names, false, nodes->layout.summarize, nodes->json, t, io);
  }
  if (const auto* show = std::get_if<SlurmShowCall>(&call)) {
    const Transport t = through(show->json);
    const std::string first = show->names.empty() ? std::string() : show->names.front();
    switch (show->what) {
      case SlurmShowCall::What::kJob:
        return run_show_job(first, show->json ? JobDetailLayout::kJson : JobDetailLayout::kScontrol, t, io);
      case SlurmShowCall::What::kNode:
        return run_show_node(first, show->json, true, t, io);
      case SlurmShowCall::What::kPartition:
        return run_show_partition(show->names, show->json, true, t, io);
      case SlurmShowCall::What::kReservation:
        return run_show_reservation(show->names, show->json, t, io);
      case SlurmShowCall::What::kConfig:
        return run_show_config(true, t, io);
    }
  }
  if (const auto* control = std::get_if<SlurmControlCall>(&call)) {
    return run_control(control->action, control->options, {}, through(control->options.json), io);
  }
  if (const auto* update = std::get_if<SlurmUpdateCall>(&call)) {
    const Time now = Time::from_seconds(static_cast<std::int64_t>(std::time(nullptr)));
    return run_update(update->words, now, update->json, through(update->json), io);
  }
  if (const auto* priority = std::get_if<SlurmPriorityCall>(&call)) {
    return run_priority(priority->options, through(priority->options.json), io);
  }
  if (const auto* shares = std::get_if<SlurmSharesCall>(&call)) {
    return run_shares(shares->options, through(shares->options.json), io);
  }
  if (const auto* diag = std::get_if<SlurmDiagCall>(&call)) {
    return run_diag(diag->json, !diag->json, through(diag->json), io);
  }
  if (const auto* node = std::get_if<SlurmNodeControlCall>(&call)) {
    return run_node_control(node->action, node->nodes, node->reason, {}, through(false), io);
  }
  // Requests name no user: the coordinator knows who asks (kernel or MUNGE).
  const auto& cancel = std::get<SlurmCancelCall>(call);
  return run_control(wire::JobAction::kCancel, cancel.options, {}, through(cancel.options.json), io);
}

}  // namespace fairway::cli
