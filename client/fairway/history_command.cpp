#include "client/fairway/history_command.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "client/api/begin_time.h"
#include "client/views/fairway/job_views.h"
#include "client/views/fairway/json_output.h"
#include "client/views/slurm/scontrol_job_view.h"
#include "client/views/slurm/slurm_job_view.h"
#include "client/views/slurm/slurm_json.h"
#include "client/views/text_format.h"
#include "shared/base/duration_format.h"
#include "shared/base/try.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

std::string exit_text(const wire::JobView& j) {
  // sacct's code:signal.
  return std::to_string(j.exit_code.value_or(0)) + ":" + std::to_string(j.signal.value_or(0));
}

std::string nodes_text(const wire::JobView& j) {
  return j.allocation.empty() ? "None" : allocated_hostlist(j);
}

// The seconds a job or step has run (to now while it runs): CPUTime's factor.
std::int64_t elapsed_seconds(const wire::JobView& j, Time now) {
  if (!j.start_time || is_waiting(j.state)) return 0;
  return std::max<std::int64_t>(0, (j.end_time.value_or(now) - *j.start_time).count());
}

// sacct's CPUTime is what was allocated, not used: elapsed times the CPUs.
std::int64_t cpu_time_raw(const wire::JobView& j, Time now) {
  return elapsed_seconds(j, now) * job_cores(j);
}

}  // namespace

std::string sacct_memory(std::optional<std::int64_t> bytes) {
  if (!bytes) return "";
  // sacct's exact conversion: a larger unit only while it divides evenly ("84500K", "2G").
  std::int64_t n = std::max<std::int64_t>(0, *bytes);
  const char* units = "KMGTPE";
  int unit = -1;
  while (n >= 1024 && n % 1024 == 0 && unit < 5) {
    n /= 1024;
    ++unit;
  }
  return std::to_string(n) + (unit < 0 ? std::string() : std::string(1, units[unit]));
}

std::string sacct_cpu_time(std::optional<std::int64_t> ms) {
  if (!ms) return "";
  const std::int64_t total = std::max<std::int64_t>(0, *ms);
  const std::int64_t secs = total / 1000, millis = total % 1000;
  const std::int64_t days = secs / 86400, hours = secs / 3600 % 24, minutes = secs / 60 % 60,
                     seconds = secs % 60;
  char out[48];
  // sacct's TotalCPU: D-HH:MM:SS past a day, HH:MM:SS past an hour, else MM:SS.mmm (the
  // milliseconds only when there are some).
  if (days > 0) {
    std::snprintf(out, sizeof out, "%lld-%02lld:%02lld:%02lld", static_cast<long long>(days),
                  static_cast<long long>(hours), static_cast<long long>(minutes),
                  static_cast<long long>(seconds));
  } else if (hours > 0) {
    std::snprintf(out, sizeof out, "%02lld:%02lld:%02lld", static_cast<long long>(hours),
                  static_cast<long long>(minutes), static_cast<long long>(seconds));
  } else if (millis > 0) {
    std::snprintf(out, sizeof out, "%02lld:%02lld.%03lld", static_cast<long long>(minutes),
                  static_cast<long long>(seconds), static_cast<long long>(millis));
  } else {
    std::snprintf(out, sizeof out, "00:%02lld:%02lld", static_cast<long long>(minutes),
                  static_cast<long long>(seconds));
  }
  return out;
}

namespace {

// sacct's memory: in the largest unit that keeps it to two decimals ("2G", "62.50G",
// "3000M").
std::string slurm_megabytes(std::int64_t mb) {
  double v = static_cast<double>(mb);
  const char* units = "MGTP";
  int unit = 0;
  while (v >= 1024 && unit < 3 && std::fmod(v * 100, 1024) == 0) {
    v /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, v == std::floor(v) ? "%.0f%c" : "%.2f%c", v, units[unit]);
  return buf;
}

// What the job asked for on each node: --mem, or --mem-per-cpu times its cores there.
std::string requested_memory(const wire::JobView& j) {
  if (j.memory_per_node_mb > 0) return slurm_megabytes(j.memory_per_node_mb);
  if (j.memory_per_cpu_mb > 0) {
    const std::int64_t nodes =
        std::max<std::int64_t>(1, std::max<std::int64_t>(j.nodes, std::ssize(j.allocation)));
    return slurm_megabytes(j.memory_per_cpu_mb * std::max<std::int64_t>(1, job_cores(j) / nodes));
  }
  return "0";
}

// The TRES a started job holds, in Slurm's spelling and order (by name).
std::string allocated_tres(const wire::JobView& j) {
  if (j.allocation.empty()) return "";
  const std::string cpus = std::to_string(job_cores(j));
  std::int64_t gpus = 0;
  for (const auto& a : j.allocation) gpus += std::ssize(a.gpus);
  const std::string gres = gpus > 0 ? ",gres/gpu=" + std::to_string(gpus) : "";
  const std::string memory = requested_memory(j);
  return "billing=" + cpus + ",cpu=" + cpus + gres + (memory == "0" ? "" : ",mem=" + memory) +
         ",node=" + std::to_string(j.allocation.size());
}

// The highest exit of the job's steps (srun's), as sacct's DerivedExitCode: by wait
// status, an exit code above a signal.
std::string derived_exit(const wire::JobView& j) {
  int worst = 0;
  for (const auto& s : j.steps) worst = std::max(worst, (s.exit_code & 0xff) << 8 | (s.signal & 0x7f));
  return std::to_string(worst >> 8) + ":" + std::to_string(worst & 0x7f);
}

}  // namespace

Result<Time> parse_history_time(std::string_view option, std::string_view text, Time now) {
  // sacct's words: now, and today or midnight (the one that began today).
  if (text == "now") return now;
  if (text == "today" || text == "midnight") {
    auto t = parse_begin_time("today", now);
    if (!t) return invalid_argument(std::string(option) + "=" + std::string(text) + ": " + t.error().message);
    return *t;
  }
  if (text.starts_with("now-")) {
    // The begin-time reader counts forward; history counts back by the same units.
    auto ahead = parse_begin_time("now+" + std::string(text.substr(4)), now);
    if (!ahead)
      return invalid_argument(std::string(option) + "=" + std::string(text) + ": expected now-COUNT[units]");
    return now - (*ahead - now);
  }
  if (text.size() < 10 || text[4] != '-') {
    return invalid_argument(std::string(option) + "=" + std::string(text) +
                            ": expected YYYY-MM-DD[THH:MM[:SS]], now, now-COUNT[units], today or midnight");
  }
  auto t = parse_begin_time(text, now);
  if (!t) return invalid_argument(std::string(option) + "=" + std::string(text) + ": " + t.error().message);
  return *t;
}

Result<TimeWindow> parse_history_window(const std::string& start, const std::string& end, Time now) {
  TimeWindow w;
  for (const auto& [text, option, out] :
       {std::tuple{&start, "--starttime", &w.from}, std::tuple{&end, "--endtime", &w.to}}) {
    if (text->empty()) continue;
    FAIRWAY_TRY_ASSIGN(t, parse_history_time(option, *text, now));
    *out = t;
  }
  return w;
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
  auto window = parse_history_window(o.start, o.end, now);
  if (!window) return report_error(io, window.error().message, kExitUsage);
  q.ended_after = window->from;
  q.ended_before = window->to;
  // As sacct: without -S or -j, jobs that ended since midnight (not the whole store).
  if (o.start.empty() && o.jobs.empty()) {
    auto midnight = parse_begin_time("today", now);
    if (midnight) q.ended_after = *midnight;
  }
  std::vector<HistoryColumn> columns;
  const std::string format = o.format.empty() && o.sacct_table ? std::string(kSacctDefaultFormat) : o.format;
  if (!format.empty()) {
    auto parsed = parse_history_format(format);
    if (!parsed) return report_error(io, parsed.error().message, kExitUsage);
    columns = std::move(*parsed);
  }
  auto reply = ask_all_pages(q, transport, io);
  if (!reply) return kExitFailure;
  // The live jobs, unless the window ends before now: they have not ended in it (a window
  // ending now, as Snakemake's `sacct --endtime now` asks, still holds them).
  if (o.live && (!q.ended_before || *q.ended_before >= now)) {
    wire::JobQuery live;
    live.jobs = q.jobs;
    live.user = q.user;
    live.partition = q.partition;
    live.states = q.states;
    live.with_steps = o.batch_steps || (o.json && o.sacct_table);
    auto running = ask_all_pages(live, transport, io);
    if (!running) return kExitFailure;
    for (wire::JobView& v : running->jobs) {
      if (!o.account.empty() && v.account != o.account) continue;
      if (is_terminal(v.state)) continue;  // in the store's answer already
      // Slurm's accounting records a cancel, a time limit or a requeue at once, while the
      // processes still end.
      if (v.stopping_as)
        v.state = *v.stopping_as;
      else if (v.cancelling)
        v.state = JobState::kCancelled;
      reply->jobs.push_back(std::move(v));
    }
    std::stable_sort(reply->jobs.begin(), reply->jobs.end(),
                     [](const wire::JobView& a, const wire::JobView& b) { return a.id < b.id; });
  }
  if (!o.names.empty()) {
    const std::vector<std::string> wanted = comma_words(o.names);
    std::erase_if(reply->jobs, [&](const wire::JobView& j) {
      return std::find(wanted.begin(), wanted.end(), j.name) == wanted.end();
    });
  }
  // Each job's batch script's and steps' lines under its own, taken before the job is
  // spelled as Slurm's (whose job line has 0:0 where its script has the signal).
  std::vector<std::string> suffixes;
  if (o.batch_steps && !o.json) {
    std::vector<wire::JobView> rows;
    for (wire::JobView& j : reply->jobs) {
      std::vector<StepLine> lines = step_lines(j);
      rows.push_back(std::move(j));
      suffixes.emplace_back();
      for (StepLine& line : lines) {
        rows.push_back(std::move(line.view));
        suffixes.push_back("." + line.id);
      }
    }
    reply->jobs = std::move(rows);
  }
  // sacct --json: each job with its batch script's and its steps', in Slurm's shape.
  std::vector<std::vector<StepLine>> job_steps;
  if (o.json && o.sacct_table) {
    for (const wire::JobView& j : reply->jobs) job_steps.push_back(step_lines(j));
  }
  if (o.sacct_table) {
    for (std::size_t i = 0; i < reply->jobs.size(); ++i) {
      if (!suffixes.empty() && !suffixes[i].empty()) continue;
      wire::JobView& j = reply->jobs[i];
      const bool requeueing = j.state == JobState::kRequeued && j.stopping_as == JobState::kRequeued;
      to_slurm_view(j);
      if (requeueing) j.state = JobState::kRequeued;  // REQUEUED in accounting, PENDING in squeue
    }
  }
  const std::vector<std::string>* id_suffixes = suffixes.empty() ? nullptr : &suffixes;
  if (o.json && o.sacct_table) {
    auto cluster = ask_cluster_name(transport, io);
    if (!cluster) return kExitFailure;
    io.out << sacct_json(reply->jobs, job_steps, *cluster,
                         [](std::uint32_t gid) { return group_name_from_file(gid); });
  } else if (o.json) {
    io.out << jobs_json(*reply);
  } else if (o.sacct_table && !o.parsable && !o.trailing_bar) {
    io.out << render_sacct_table(*reply, columns, !o.noheader, id_suffixes);
  } else {
    io.out << render_history(*reply, o.parsable || o.trailing_bar, columns, !o.noheader, o.trailing_bar,
                             id_suffixes);
  }
  return kExitOk;
}

namespace {

struct HistoryField {
  const char* name;
  std::string (*value)(const wire::JobView& j, Time now);
};

std::string opt_time_text(const std::optional<Time>& t) {
  return t ? format_local_time(*t) : "Unknown";
}

// sacct's field names, with what each shows for a Fairway job.
const HistoryField kHistoryFields[] = {
    {"JobID", [](const wire::JobView& j, Time) { return job_id_text(j); }},
    {"JobIDRaw", [](const wire::JobView& j, Time) { return std::to_string(j.id.value()); }},
    {"JobName", [](const wire::JobView& j, Time) { return j.name; }},
    {"User", [](const wire::JobView& j, Time) { return j.user; }},
    {"Account", [](const wire::JobView& j, Time) { return j.account; }},
    {"Partition", [](const wire::JobView& j, Time) { return j.partition; }},
    {"QOS", [](const wire::JobView& j, Time) { return j.qos; }},
    {"State", [](const wire::JobView& j, Time) { return sacct_state_text(j); }},
    {"ExitCode", [](const wire::JobView& j, Time) { return exit_text(j); }},
    {"Submit", [](const wire::JobView& j, Time) { return format_local_time(j.submit_time); }},
    {"Start", [](const wire::JobView& j, Time) { return opt_time_text(j.start_time); }},
    {"End", [](const wire::JobView& j, Time) { return opt_time_text(j.end_time); }},
    {"Elapsed", [](const wire::JobView& j,
                   Time now) { return format_walltime(Duration::seconds(elapsed_seconds(j, now))); }},
    {"ElapsedRaw",
     [](const wire::JobView& j, Time now) {
       if (!j.start_time) return std::string("0");
       return std::to_string((j.end_time.value_or(now) - *j.start_time).count());
     }},
    {"Timelimit",
     [](const wire::JobView& j, Time) {
       return j.time_limit.is_infinite() ? std::string("UNLIMITED") : format_walltime(j.time_limit);
     }},
    // A waiting job's: what it asks for, as sacct shows.
    {"AllocCPUS", [](const wire::JobView& j, Time) { return std::to_string(job_cores(j)); }},
    {"NNodes", [](const wire::JobView& j, Time) { return std::to_string(j.allocation.size()); }},
    {"NodeList", [](const wire::JobView& j, Time) { return nodes_text(j); }},
    // The job's and its script's: the peak of the job's cgroup on its first node (its
    // steps there included); a step's: its largest task's, as its node's relay measured it.
    {"MaxRSS", [](const wire::JobView& j, Time) { return sacct_memory(j.peak_memory_bytes); }},
    {"CPUTime", [](const wire::JobView& j,
                   Time now) { return format_walltime(Duration::seconds(cpu_time_raw(j, now))); }},
    {"CPUTimeRAW", [](const wire::JobView& j, Time now) { return std::to_string(cpu_time_raw(j, now)); }},
    // What was used: the job's cgroup's CPU time on its first node; a step's, its tasks'.
    {"TotalCPU", [](const wire::JobView& j, Time) { return sacct_cpu_time(j.cpu_time_ms); }},
    {"Reason", [](const wire::JobView& j,
                  Time) { return j.state_reason.empty() ? std::string("None") : j.state_reason; }},
    // A step's line has its own (field_text).
    {"DerivedExitCode", [](const wire::JobView& j, Time) { return derived_exit(j); }},
    {"AllocTRES", [](const wire::JobView& j, Time) { return allocated_tres(j); }},
    {"ReqMem", [](const wire::JobView& j, Time) { return requested_memory(j); }},
};

// One cell's text: the field's value, and a step's suffix after a JobID or JobIDRaw.
std::string field_text(const HistoryColumn& c, const wire::JobView& j, Time now,
                       const std::vector<std::string>* id_suffixes, std::size_t row) {
  const std::string_view name = kHistoryFields[c.field].name;
  const bool step = id_suffixes != nullptr && row < id_suffixes->size() && !(*id_suffixes)[row].empty();
  // A step's line (ID.batch, ID.N): no derived exit or memory request of its own.
  if (step && (name == "DerivedExitCode" || name == "ReqMem" || name == "Timelimit")) return "";
  // With its lines below it, the job's own line has no MaxRSS: sacct gives it to the steps.
  if (id_suffixes != nullptr && !step && name == "MaxRSS") return "";
  if (step && name == "AllocTRES") return step_tres(j);
  std::string text = kHistoryFields[c.field].value(j, now);
  if (step && (name == "JobID" || name == "JobIDRaw")) text += (*id_suffixes)[row];
  return text;
}

// A value cut to `width` ends in '+', as sacct marks it.
std::string fit_width(std::string value, int width) {
  if (width <= 0) return value;
  const auto w = static_cast<std::size_t>(width);
  if (value.size() > w) return value.substr(0, w - 1) + "+";
  return std::string(w - value.size(), ' ') + value;
}

}  // namespace

Result<std::vector<HistoryColumn>> parse_history_format(const std::string& format) {
  std::vector<HistoryColumn> columns;
  for (std::string word : comma_words(format)) {
    HistoryColumn c;
    if (const auto pct = word.find('%'); pct != std::string::npos) {
      const std::string digits = word.substr(pct + 1);
      if (digits.empty() || digits.size() > 3 ||
          digits.find_first_not_of("0123456789") != std::string::npos || std::stoi(digits) == 0) {
        return invalid_argument("--format: \"" + word + "\": the width after % must be 1-999");
      }
      c.width = std::stoi(digits);
      word.resize(pct);
    }
    std::size_t found = std::size(kHistoryFields);
    for (std::size_t i = 0; i < std::size(kHistoryFields); ++i) {
      if (to_lower(kHistoryFields[i].name) == to_lower(word)) found = i;
    }
    if (found == std::size(kHistoryFields)) {
      std::string known;
      for (const auto& f : kHistoryFields) known += (known.empty() ? "" : ",") + std::string(f.name);
      return invalid_argument("--format: unknown field \"" + word + "\" (fields: " + known + ")");
    }
    c.field = found;
    columns.push_back(c);
  }
  if (columns.empty()) return invalid_argument("--format: no fields given");
  return columns;
}

std::string render_history(const wire::JobQueryReply& reply, bool parsable,
                           const std::vector<HistoryColumn>& columns, bool header_line, bool trailing_bar,
                           const std::vector<std::string>* id_suffixes) {
  std::vector<HistoryColumn> shown = columns;
  if (shown.empty()) shown = *parse_history_format(kHistoryDefaultFormat);
  // -P shows whole values (tools split on '|'); widths shape the table only.
  const auto cell = [&](std::string value, const HistoryColumn& c) {
    return parsable ? value : fit_width(std::move(value), c.width);
  };
  std::vector<std::string> header;
  for (const auto& c : shown) header.push_back(cell(kHistoryFields[c.field].name, c));
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < reply.jobs.size(); ++i) {
    std::vector<std::string> row;
    for (const auto& c : shown)
      row.push_back(cell(field_text(c, reply.jobs[i], reply.now, id_suffixes, i), c));
    rows.push_back(std::move(row));
  }
  if (!parsable) {
    const std::string table = render_table(header, rows);
    return header_line ? table : table.substr(table.find('\n') + 1);
  }
  const std::string end = trailing_bar ? "|\n" : "\n";
  std::string out = header_line ? join(header, "|") + end : std::string();
  for (const auto& row : rows) out += join(row, "|") + end;
  return out;
}

namespace {

// sacct's default width of a field (Slurm 22.05), 10 unless named here.
int sacct_width(std::string_view field) {
  static const std::pair<std::string_view, int> widths[] = {
      {"JobID", 12}, {"JobIDRaw", 12}, {"ExitCode", 8},        {"User", 9},
      {"NNodes", 8}, {"NodeList", 15}, {"Submit", 19},         {"Start", 19},
      {"End", 19},   {"Reason", 25},   {"DerivedExitCode", 15}};
  for (const auto& [name, w] : widths) {
    if (name == field) return w;
  }
  return 10;
}

}  // namespace

std::string render_sacct_table(const wire::JobQueryReply& reply, const std::vector<HistoryColumn>& columns,
                               bool header, const std::vector<std::string>* id_suffixes) {
  std::string out;
  const auto cell = [](std::string value, int width, bool left, bool is_header = false) {
    const auto w = static_cast<std::size_t>(width);
    // A cut value ends in '+'; a cut header does not (sacct -o JobName%5: "JobNa").
    if (value.size() > w) value = is_header ? value.substr(0, w) : value.substr(0, w - 1) + "+";
    const std::string pad(w - value.size(), ' ');
    return (left ? value + pad : pad + value) + " ";
  };
  const auto width_of = [](const HistoryColumn& c) {
    return c.width > 0 ? c.width : sacct_width(kHistoryFields[c.field].name);
  };
  const auto left = [](const HistoryColumn& c) {
    return std::string_view(kHistoryFields[c.field].name).starts_with("JobID");
  };
  if (header) {
    for (const auto& c : columns) out += cell(kHistoryFields[c.field].name, width_of(c), left(c), true);
    out += "\n";
    for (const auto& c : columns) out += std::string(static_cast<std::size_t>(width_of(c)), '-') + " ";
    out += "\n";
  }
  for (std::size_t i = 0; i < reply.jobs.size(); ++i) {
    for (const auto& c : columns)
      out += cell(field_text(c, reply.jobs[i], reply.now, id_suffixes, i), width_of(c), left(c));
    out += "\n";
  }
  return out;
}

}  // namespace fairway::cli
