#include "coordinator/cli/history_command.h"

#include <ostream>

#include "coordinator/cli/begin_time.h"
#include "coordinator/cli/job_views.h"
#include "coordinator/cli/json_output.h"
#include "coordinator/cli/text_format.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

std::string exit_text(const wire::JobView& j) {
  // sacct's code:signal.
  return std::to_string(j.exit_code.value_or(0)) + ":" + std::to_string(j.signal.value_or(0));
}

std::string total_cores(const wire::JobView& j) {
  std::size_t n = 0;
  for (const auto& a : j.allocation) n += a.cores.size();
  return std::to_string(n);
}

std::string nodes_text(const wire::JobView& j) {
  std::vector<std::string> names;
  for (const auto& a : j.allocation) names.push_back(a.node);
  return names.empty() ? "None" : compress_hostlist(names);
}

std::string mib(const std::optional<std::int64_t>& bytes) {
  if (!bytes) return "";
  return std::to_string((*bytes + (1 << 20) - 1) >> 20) + "M";
}

std::string cpu_time(const std::optional<std::int64_t>& ms) {
  return ms ? format_elapsed(Duration::seconds(*ms / 1000)) : "";
}

}  // namespace

Result<Time> parse_history_time(std::string_view option, std::string_view text, Time now) {
  if (text.starts_with("now-")) {
    // The begin-time reader counts forward; history counts back by the same units.
    auto ahead = parse_begin_time("now+" + std::string(text.substr(4)), now);
    if (!ahead) return invalid_argument(std::string(option) + "=" + std::string(text) + ": expected now-COUNT[units]");
    return now - (*ahead - now);
  }
  if (text.size() < 10 || text[4] != '-') {
    return invalid_argument(std::string(option) + "=" + std::string(text) +
                            ": expected YYYY-MM-DD[THH:MM[:SS]] or now-COUNT[units]");
  }
  auto t = parse_begin_time(text, now);
  if (!t) return invalid_argument(std::string(option) + "=" + std::string(text) + ": " + t.error().message);
  return *t;
}

int run_history(const HistoryOptions& o, Time now, const Transport& transport, const Output& io) {
  wire::JobQuery q;
  q.from_store = true;
  q.include_finished = true;
  q.user = o.user;
  q.account = o.account;
  q.partition = o.partition;
  if (auto st = add_state_and_id_filters(q, o.states, o.jobs); !st) {
    return report_error(io, st.error().message, kExitUsage);
  }
  for (const auto& [text, option, out] : {std::tuple{&o.start, "--starttime", &q.ended_after},
                                          std::tuple{&o.end, "--endtime", &q.ended_before}}) {
    if (text->empty()) continue;
    auto t = parse_history_time(option, *text, now);
    if (!t) return report_error(io, t.error().message, kExitUsage);
    *out = *t;
  }
  // As sacct: without -S or -j, jobs that ended since midnight (not the whole store).
  if (o.start.empty() && o.jobs.empty()) {
    auto midnight = parse_begin_time("today", now);
    if (midnight) q.ended_after = *midnight;
  }
  auto reply = ask_all_pages(q, transport, io);
  if (!reply) return kExitFailure;
  io.out << (o.json ? jobs_json(*reply) : render_history(*reply, o.parsable));
  return kExitOk;
}

std::string render_history(const wire::JobQueryReply& reply, bool parsable) {
  const std::vector<std::string> header = {"JobID",  "JobName",  "User",    "Account", "Partition",
                                           "State",  "ExitCode", "Start",   "End",     "Elapsed",
                                           "AllocCPUS", "NodeList", "MaxRSS", "CPUTime"};
  std::vector<std::vector<std::string>> rows;
  for (const auto& j : reply.jobs) {
    rows.push_back({std::to_string(j.id.value()), j.name, j.user, j.account, j.partition, state_name(j.state),
                    exit_text(j), j.start_time ? format_local_time(*j.start_time) : "Unknown",
                    j.end_time ? format_local_time(*j.end_time) : "Unknown", elapsed_text(j, reply.now),
                    total_cores(j), nodes_text(j), mib(j.peak_memory_bytes), cpu_time(j.cpu_time_ms)});
  }
  if (!parsable) return render_table(header, rows);
  std::string out;
  for (const auto* row : {&header}) out += join(*row, "|") + "\n";
  for (const auto& row : rows) out += join(row, "|") + "\n";
  return out;
}

}  // namespace fairway::cli
