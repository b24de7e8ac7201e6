// fairway cancel, hold, release, requeue (scancel, scontrol hold/release/requeue): the
// jobs they act on (ids, array tasks, scancel's filters, scancel -i's yeses) and the
// coordinator's answer for each. Pure apart from the transport and streams given.
#include <algorithm>
#include <iostream>
#include <istream>
#include <ostream>

#include "client/api/option_values.h"
#include "client/fairway/commands.h"
#include "client/views/fairway/json_output.h"

namespace fairway::cli {

namespace {

// The ids a cancel with filters acts on: the jobs the coordinator lists for them (only
// those also in `ids` when ids were given, as scancel does).
std::optional<std::vector<JobId>> matching_jobs(const JobFilter& f, const std::vector<JobId>& ids,
                                                const Transport& transport, const Output& io) {
  wire::JobQuery q;
  q.user = f.user;
  q.partition = f.partition;
  q.jobs = ids;
  if (auto st = add_state_and_id_filters(q, f.states, ""); !st) {
    report_error(io, st.error().message, kExitUsage);
    return std::nullopt;
  }
  auto reply = ask_all_pages(q, transport, io);
  if (!reply) return std::nullopt;
  const auto wanted = [&](const wire::JobView& j) {
    return (f.name.empty() || j.name == f.name) && (f.account.empty() || j.account == f.account);
  };
  // An array whose waiting line matches is acted on whole (its id), its tasks with it: not
  // each task again, which would find the ones the array already ended.
  std::vector<JobId> whole_arrays;
  for (const auto& j : reply->jobs) {
    if (wanted(j) && j.array_job.value() != 0 && j.array_tasks.starts_with("["))
      whole_arrays.push_back(j.array_job);
  }
  std::vector<JobId> out;
  for (const auto& j : reply->jobs) {
    if (!wanted(j)) continue;
    const bool task = j.array_job.value() != 0 && !j.array_tasks.starts_with("[");
    if (task && std::find(whole_arrays.begin(), whole_arrays.end(), j.array_job) != whole_arrays.end())
      continue;
    out.push_back(j.id);
  }
  return out;
}

// scancel -i: the jobs among `jobs` the user says yes to, asked one by one in order.
Result<std::vector<JobId>> confirmed_jobs(const std::vector<JobId>& jobs, std::string_view verb,
                                          const Transport& transport, const Output& io,
                                          std::istream& answers) {
  wire::JobQuery q;
  q.jobs = jobs;
  auto reply = ask_all_pages(q, transport, io);
  if (!reply) return make_error(ErrorCode::kUnavailable, "the coordinator did not answer");
  std::vector<JobId> yes;
  for (JobId id : jobs) {
    const auto v = std::find_if(reply->jobs.begin(), reply->jobs.end(),
                                [&](const wire::JobView& j) { return j.id == id && !is_terminal(j.state); });
    if (v == reply->jobs.end()) {
      return make_error(ErrorCode::kNotFound, "Kill job error on job id " + std::to_string(id.value()) +
                                                  ": Invalid job id specified");
    }
    io.out << (verb == "cancel" ? "Cancel" : "Signal") << " job_id=" << id.value() << " name=" << v->name
           << " partition=" << v->partition << " [y/n]? ";
    io.out.flush();
    std::string answer;
    std::getline(answers, answer);
    if (!answer.empty() && (answer[0] == 'y' || answer[0] == 'Y')) yes.push_back(id);
  }
  return yes;
}

}  // namespace

int run_control(wire::JobAction action, const ControlOptions& o, const std::string& user,
                const Transport& transport, const Output& io) {
  std::optional<SignalRequest> signal;
  if (!o.signal.empty()) {
    auto number = parse_signal_name(o.signal);
    if (!number) return report_error(io, "--signal=" + o.signal + ": " + number.error().message, kExitUsage);
    signal = SignalRequest{*number, o.batch};
  } else if (o.batch) {
    return report_error(io, "-b/--batch goes with --signal", kExitUsage);
  }
  return run_job_control(action, o.ids, user, transport, io, o.filter, o.json, signal, o.quiet_when_gone,
                         o.confirm ? &std::cin : nullptr);
}

int run_job_control(wire::JobAction action, const std::vector<std::string>& ids, const std::string& user,
                    const Transport& transport, const Output& io, const JobFilter& filter, bool json,
                    const std::optional<SignalRequest>& signal, bool quiet_when_gone,
                    std::istream* confirm_from) {
  auto refs = parse_job_refs(ids);
  if (!refs) return report_error(io, refs.error().message, kExitUsage);
  std::optional<std::vector<JobId>> jobs = refs->jobs;
  if (!filter.states.empty()) {
    if (auto st = parse_states(filter.states); !st) return report_error(io, st.error().message, kExitUsage);
  }
  if (!filter.empty()) {
    auto matched = matching_jobs(filter, *jobs, transport, io);
    if (!matched) return kExitFailure;
    if (matched->empty()) return kExitOk;  // as scancel: nothing matched, nothing to do
    jobs = std::move(*matched);
  } else if (jobs->empty() && refs->task_arrays.empty()) {
    return report_error(io,
                        std::string(to_string(action)) + " needs at least one job id" +
                            (action == wire::JobAction::kCancel ? " or a filter (-u, -t, -p, -n, -A)" : ""),
                        kExitUsage);
  }
  if (confirm_from != nullptr) {
    if (!refs->task_arrays.empty()) {
      return report_error(io, "--interactive takes whole jobs, not array tasks (" + ids.front() + ")",
                          kExitUsage);
    }
    auto yes = confirmed_jobs(*jobs, signal ? "signal" : to_string(action), transport, io, *confirm_from);
    if (!yes) return report_error(io, yes.error().message, kExitFailure);
    if (yes->empty()) return kExitOk;
    jobs = std::move(*yes);
  }
  // Bounded requests, however many jobs a filter matched.
  constexpr std::size_t kChunk = 5000;
  wire::JobControlReply all;
  // Single tasks go with the first request (a filter replaces the ids given).
  const bool tasks = filter.empty() && !refs->task_arrays.empty();
  for (std::size_t at = 0; at < jobs->size() || (at == 0 && tasks); at += kChunk) {
    const std::vector<JobId> chunk(
        jobs->begin() + static_cast<std::ptrdiff_t>(std::min(at, jobs->size())),
        jobs->begin() + static_cast<std::ptrdiff_t>(std::min(at + kChunk, jobs->size())));
    wire::JobControl request;
    request.action = action;
    request.jobs = chunk;
    request.user = user;
    if (at == 0 && tasks) {
      request.task_arrays = refs->task_arrays;
      request.task_indices = refs->task_indices;
    }
    if (signal) {
      request.action = wire::JobAction::kSignal;
      request.signal = signal->signal;
      request.batch_only = signal->batch_only;
    }
    auto reply = ask<wire::JobControlReply>(request, transport, io);
    if (!reply) return kExitFailure;
    const std::size_t asked = chunk.size() + request.task_arrays.size();
    if (reply->results.size() != asked) {
      return report_error(io,
                          "coordinator answered for " + std::to_string(reply->results.size()) + " of " +
                              std::to_string(asked) + " jobs",
                          kExitFailure);
    }
    all.results.insert(all.results.end(), reply->results.begin(), reply->results.end());
  }
  // Only an end asked for is done when the job is gone; a signal to a job that is not
  // running is still refused aloud.
  return report_control_results(signal ? "signal" : std::string(to_string(action)), all, json, io,
                                quiet_when_gone && !signal && action == wire::JobAction::kCancel);
}

int report_control_results(const std::string& verb, const wire::JobControlReply& reply, bool json,
                           const Output& io, bool quiet_when_gone) {
  int failed = 0;
  for (const auto& r : reply.results) {
    if (r.ok) continue;
    if (quiet_when_gone && (r.code == ErrorCode::kNotFound || r.code == ErrorCode::kFailedPrecondition))
      continue;
    ++failed;
    if (!json) {
      report_error(
          io,
          verb + " job " + std::to_string(r.job.value()) + ": " + (r.message.empty() ? "refused" : r.message),
          kExitFailure);
    }
  }
  if (json) io.out << control_json(reply);
  return failed > 0 ? kExitFailure : kExitOk;
}

}  // namespace fairway::cli
