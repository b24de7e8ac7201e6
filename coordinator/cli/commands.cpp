#include "coordinator/cli/commands.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ostream>

#include "coordinator/cli/job_views.h"
#include "coordinator/cli/json_output.h"
#include "coordinator/cli/node_views.h"
#include "coordinator/cli/text_format.h"

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

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Calls the coordinator and unpacks a reply of type T; anything else is a printed failure.
template <typename T>
std::optional<T> ask(const wire::Message& request, const Transport& transport, const Output& io) {
  auto reply = transport(request);
  if (!reply) {
    report_error(io, reply.error().message, kExitFailure);
    return std::nullopt;
  }
  if (const auto* e = std::get_if<wire::ErrorReply>(&*reply)) {
    report_error(io, "coordinator: " + e->message, kExitFailure);
    return std::nullopt;
  }
  if (const auto* t = std::get_if<T>(&*reply)) return *t;
  report_error(io,
               "unexpected " + std::string(to_string(wire::message_type(*reply))) +
                   " in reply to " + std::string(to_string(wire::message_type(request))),
               kExitFailure);
  return std::nullopt;
}

}  // namespace

int report_error(const Output& io, const std::string& message, int code) {
  io.err << "fairway: error: " << message << "\n";
  return code;
}

Result<std::vector<JobId>> parse_job_ids(const std::vector<std::string>& words) {
  std::vector<JobId> ids;
  for (const std::string& word : words) {
    for (const std::string& id : split_commas(word)) {
      std::uint64_t v = 0;
      const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), v);
      if (id.empty() || ec != std::errc() || end != id.data() + id.size() || v == 0) {
        return invalid_argument("job id \"" + id + "\" is not a job number");
      }
      ids.emplace_back(v);
    }
  }
  return ids;
}

Result<std::vector<JobState>> parse_states(const std::string& list) {
  std::vector<JobState> out;
  for (const std::string& word : split_commas(list)) {
    std::optional<JobState> found;
    for (int s = 0; s <= static_cast<int>(kLastJobState) && !found; ++s) {
      const auto state = static_cast<JobState>(s);
      if (lower(word) == lower(state_code(state)) || lower(word) == to_string(state)) {
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
    auto parsed = parse_states(states);
    if (!parsed) return std::unexpected(parsed.error());
    q.states = *parsed;
  }
  if (!jobs.empty()) {
    auto ids = parse_job_ids({jobs});
    if (!ids) return std::unexpected(ids.error().with_context("--jobs"));
    q.jobs = *ids;
  }
  return ok_status();
}

int run_queue(const QueueOptions& o, const Transport& transport, const Output& io) {
  wire::JobQuery q;
  q.user = o.user;
  q.partition = o.partition;
  q.include_finished = o.all;
  if (auto st = add_state_and_id_filters(q, o.states, o.jobs); !st) {
    return report_error(io, st.error().message, kExitUsage);
  }
  auto reply = ask_all_pages(q, transport, io);
  if (!reply) return kExitFailure;
  io.out << (o.json ? jobs_json(*reply) : render_queue(*reply));
  return kExitOk;
}

std::optional<wire::JobQueryReply> ask_all_pages(wire::JobQuery q, const Transport& transport, const Output& io) {
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

int run_show_job(const std::string& id, bool json, const Transport& transport, const Output& io) {
  auto ids = parse_job_ids({id});
  if (!ids) return report_error(io, ids.error().message, kExitUsage);
  wire::JobQuery q;
  q.jobs = *ids;
  q.include_finished = true;
  auto reply = ask<wire::JobQueryReply>(q, transport, io);
  if (!reply) return kExitFailure;
  if (reply->jobs.empty()) return report_error(io, "job " + id + " not found", kExitFailure);
  for (const auto& j : reply->jobs) {
    io.out << (json ? job_json(j) : render_job_detail(j, reply->now));
  }
  return kExitOk;
}

int run_show_node(const std::string& name, bool json, const Transport& transport,
                  const Output& io) {
  auto reply = ask<wire::NodeQueryReply>(wire::NodeQuery{{name}}, transport, io);
  if (!reply) return kExitFailure;
  if (reply->nodes.empty()) return report_error(io, "node " + name + " not found", kExitFailure);
  for (const auto& n : reply->nodes) io.out << (json ? node_json(n) : render_node_detail(n));
  return kExitOk;
}

int run_nodes(const std::vector<std::string>& names, bool json, const Transport& transport,
              const Output& io) {
  auto reply = ask<wire::NodeQueryReply>(wire::NodeQuery{names}, transport, io);
  if (!reply) return kExitFailure;
  io.out << (json ? nodes_json(*reply) : render_nodes(*reply));
  return kExitOk;
}

int run_job_control(wire::JobAction action, const std::vector<std::string>& ids,
                    const std::string& user, const Transport& transport, const Output& io) {
  auto jobs = parse_job_ids(ids);
  if (!jobs) return report_error(io, jobs.error().message, kExitUsage);
  if (jobs->empty()) {
    return report_error(io, std::string(to_string(action)) + " needs at least one job id",
                        kExitUsage);
  }
  auto reply = ask<wire::JobControlReply>(wire::JobControl{action, *jobs, user}, transport, io);
  if (!reply) return kExitFailure;
  int failed = 0;
  for (const auto& r : reply->results) {
    if (r.ok) continue;
    ++failed;
    report_error(io,
                 std::string(to_string(action)) + " job " + std::to_string(r.job.value()) +
                     ": " + (r.message.empty() ? "refused" : r.message),
                 kExitFailure);
  }
  if (reply->results.size() != jobs->size()) {
    return report_error(io,
                        "coordinator answered for " + std::to_string(reply->results.size()) +
                            " of " + std::to_string(jobs->size()) + " jobs",
                        kExitFailure);
  }
  return failed > 0 ? kExitFailure : kExitOk;
}

int run_node_control(wire::NodeAction action, const std::vector<std::string>& nodes,
                     const std::string& reason, const std::string& user,
                     const Transport& transport, const Output& io) {
  const char* verb = action == wire::NodeAction::kDrain ? "drain" : "resume";
  if (action == wire::NodeAction::kDrain && reason.empty()) {
    return report_error(io, "drain needs --reason TEXT (shown by fairway nodes)", kExitUsage);
  }
  auto reply = ask<wire::NodeControlReply>(wire::NodeControl{action, nodes, reason, user}, transport, io);
  if (!reply) return kExitFailure;
  int failed = 0;
  for (const auto& r : reply->results) {
    if (r.ok) continue;
    ++failed;
    report_error(io, std::string(verb) + " " + r.node + ": " + r.message, kExitFailure);
  }
  return failed > 0 ? kExitFailure : kExitOk;
}

}  // namespace fairway::cli
