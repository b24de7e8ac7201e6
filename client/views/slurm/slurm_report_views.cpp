#include "client/views/slurm/slurm_report_views.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <set>

#include "client/views/fairway/job_views.h"
#include "client/views/slurm/percent_format.h"
#include "client/views/slurm/slurm_job_view.h"
#include "client/views/text_format.h"

namespace fairway::cli {
namespace {

// Slurm's fields: cut to the width, padded to it; right-justified unless `left`.
std::string field(std::string s, std::size_t width, bool left = false) {
  return fit_field(std::move(s), PercentField{0, {}, static_cast<int>(width), !left, false});
}

// squeue -s's own %-layout (Slurm 22.05).
constexpr const char* kSqueueStepsFormat = "%.15i %.8j %.9P %.8u %.9M %N";

// The running steps of running jobs, by job id, each job's in step_lines' order (its batch
// script's first).
struct RunningStep {
  const wire::JobView* job;
  StepLine line;
};
std::vector<RunningStep> running_steps(const wire::JobQueryReply& reply) {
  std::vector<const wire::JobView*> jobs;
  for (const auto& j : reply.jobs) {
    if (j.state == JobState::kRunning) jobs.push_back(&j);
  }
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const wire::JobView* a, const wire::JobView* b) { return a->id < b->id; });
  std::vector<RunningStep> out;
  for (const wire::JobView* j : jobs) {
    for (StepLine& l : step_lines(*j)) {
      if (l.view.state == JobState::kRunning) out.push_back({j, std::move(l)});
    }
  }
  return out;
}

std::string whole(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string fixed6(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

// Slurm's factor columns, and which of Fairway's terms each one shows. SITE takes the
// terms Slurm has no column for.
struct FactorColumn {
  const char* header;
  const char* term;  // nullptr: SITE
  bool in_default;   // shown by default when the profile weighs the term (SITE: always)
  std::size_t width = 10;
};
constexpr FactorColumn kColumns[] = {
    {"SITE", nullptr, true},   {"AGE", "age", true},
    {"ASSOC", "assoc", false}, {"FAIRSHARE", "fairshare", true},
    {"JOBSIZE", "size", true}, {"PARTITION", "partition", true},
    {"QOS", "qos", true},      {"NICE", "nice", false, 11},
};
constexpr const char* kMapped[] = {"age", "fairshare", "size", "partition", "qos", "nice"};

bool is_mapped(const std::string& term) {
  return std::any_of(std::begin(kMapped), std::end(kMapped), [&](const char* t) { return term == t; });
}

double column_value(const wire::JobView& j, const FactorColumn& c) {
  double v = 0;
  for (const auto& f : j.priority_factors) {
    if (c.term == nullptr ? !is_mapped(f.name) : f.name == c.term) v += f.value;
  }
  return v;
}

}  // namespace

std::string render_sprio(const wire::JobQueryReply& reply, const SprioLayout& layout) {
  std::set<std::string> weighed;
  for (const auto& j : reply.jobs) {
    for (const auto& f : j.priority_factors) weighed.insert(f.name);
  }
  std::vector<const FactorColumn*> columns;
  for (const FactorColumn& c : kColumns) {
    if (layout.long_format || (c.in_default && (c.term == nullptr || weighed.contains(c.term))))
      columns.push_back(&c);
  }
  const bool user = layout.long_format || layout.user_column;
  std::string out;
  // The header is a line like any other, with the column names for values.
  const auto line = [&](const std::string& id, const std::string& partition, const std::string& owner,
                        const std::string& priority, const std::vector<std::string>& values,
                        const std::string& tres) {
    std::string l = field(id, 15) + " " + field(partition, 9, true) + " ";
    if (user) l += field(owner, 8) + " ";
    l += field(priority, 10);
    for (std::size_t i = 0; i < values.size(); ++i) l += " " + field(values[i], columns[i]->width);
    if (layout.long_format) l += " " + field(tres, 20);
    out += l + "\n";
  };
  if (layout.header) {
    std::vector<std::string> names;
    for (const FactorColumn* c : columns) names.emplace_back(c->header);
    line("JOBID", "PARTITION", "USER", "PRIORITY", names, "TRES");
  }
  std::vector<const wire::JobView*> jobs;
  for (const auto& j : reply.jobs) jobs.push_back(&j);
  std::stable_sort(jobs.begin(), jobs.end(), [](const wire::JobView* a, const wire::JobView* b) {
    if (a->priority != b->priority) return a->priority > b->priority;
    return a->id < b->id;
  });
  for (const wire::JobView* j : jobs) {
    std::vector<std::string> values;
    for (const FactorColumn* c : columns) values.push_back(whole(column_value(*j, *c)));
    line(std::to_string(j->id.value()), j->partition, j->user, whole(j->priority), values, "");
  }
  return out;
}

std::string render_sshare(const wire::SharesReply& reply, const SshareLayout& layout) {
  static constexpr std::size_t kWidths[] = {20, 10, 10, 11, 11, 13, 10};
  static constexpr const char* kHeaders[] = {"Account",  "User",         "RawShares", "NormShares",
                                             "RawUsage", "EffectvUsage", "FairShare"};
  std::string out;
  const auto emit = [&](const std::vector<std::string>& cells) {
    std::string l;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (layout.parsable || layout.trailing_bar) {
        l += (i == 0 ? "" : "|") + cells[i];
      } else {
        l += field(cells[i], kWidths[i], i == 0) + " ";
      }
    }
    if (layout.trailing_bar) l += "|";
    out += l + "\n";
  };
  if (layout.header) {
    emit(std::vector<std::string>(std::begin(kHeaders), std::end(kHeaders)));
    if (!layout.parsable && !layout.trailing_bar) {
      std::string dashes;
      for (std::size_t w : kWidths) dashes += std::string(w, '-') + " ";
      out += dashes + "\n";
    }
  }
  // The coordinator sent only the users asked for: an account shows with one of them, or
  // always when every user was asked for.
  // The root's usage is the cluster's, which every row's effective usage is a share of
  // (the reply may hold only some accounts).
  std::set<std::string> accounts;
  double total_usage = 0;
  for (const auto& s : reply.rows) {
    if (s.effective_usage > 0) total_usage = s.raw_usage / s.effective_usage;
    if (!s.user.empty() || layout.every_account) accounts.insert(s.account);
  }
  const std::string indent = layout.from_accounts ? "" : " ";
  if (!layout.from_accounts) emit({"root", "", "", fixed6(0), whole(total_usage), fixed6(1), ""});
  for (const auto& s : reply.rows) {
    if (!accounts.contains(s.account)) continue;
    if (s.user.empty()) {
      emit({indent + s.account, "", whole(s.raw_shares), fixed6(s.norm_shares), whole(s.raw_usage),
            fixed6(s.effective_usage), ""});
    } else {
      emit({indent + " " + s.account, s.user, whole(s.raw_shares), fixed6(s.norm_shares), whole(s.raw_usage),
            fixed6(s.effective_usage), fixed6(s.fairshare)});
    }
  }
  return out;
}

std::string render_squeue_steps(const wire::JobQueryReply& reply, bool header) {
  std::vector<RunningStep> steps = running_steps(reply);
  // squeue lists a job's batch script after its numbered steps.
  std::stable_sort(steps.begin(), steps.end(), [](const RunningStep& a, const RunningStep& b) {
    return a.job->id < b.job->id || (a.job->id == b.job->id && a.line.id != "batch" && b.line.id == "batch");
  });
  const auto fields = parse_percent_format(
      kSqueueStepsFormat, [](char) { return true; }, "");
  assert(fields);
  const auto cell = [&](std::size_t row, char letter) -> std::string {
    const RunningStep& s = steps[row];
    switch (letter) {
      case 'i':
        return std::to_string(s.job->id.value()) + "." + s.line.id;
      case 'j':
        return s.line.view.name;
      case 'P':
        return s.job->partition;
      case 'u':
        return s.job->user;
      case 'M':
        return elapsed_text(s.line.view, reply.now);
      default:
        return allocated_hostlist(s.line.view);
    }
  };
  const auto title = [](char letter) -> std::string {
    switch (letter) {
      case 'i':
        return "STEPID";
      case 'j':
        return "NAME";
      case 'P':
        return "PARTITION";
      case 'u':
        return "USER";
      case 'M':
        return "TIME";
      default:
        return "NODELIST";
    }
  };
  return render_percent_rows(*fields, steps.size(), cell, title, header);
}

std::string render_scontrol_steps(const wire::JobQueryReply& reply, const std::string& step) {
  std::string out;
  for (const auto& [job, line] : running_steps(reply)) {
    if (!step.empty() && line.id != step) continue;
    const wire::JobView& j = *job;
    const wire::JobView& v = line.view;
    const bool batch = line.id == "batch";
    out += "StepId=" + std::to_string(j.id.value()) + "." + line.id +
           " UserId=" + (j.uid ? std::to_string(*j.uid) : j.user) +
           " StartTime=" + (v.start_time ? format_local_time(*v.start_time) : "Unknown") +
           " TimeLimit=UNLIMITED\n";
    out += "   State=RUNNING Partition=" + j.partition + " NodeList=" + allocated_hostlist(v) + "\n";
    // Slurm counts no CPUs, and no TRES, of the batch step's own.
    out += "   Nodes=" + std::to_string(v.allocation.size()) +
           " CPUs=" + (batch ? "0" : std::to_string(job_cores(v))) +
           " Tasks=" + std::to_string(batch ? 1 : std::max(1, v.ntasks)) + " Name=" + v.name +
           " Network=(null)\n";
    out += "   TRES=" + (batch ? std::string("(null)") : step_tres(v)) + "\n";
    out += "   ResvPorts=(null)\n";
    out += "   CPUFreqReq=Default" + (batch ? std::string() : " Dist=" + step_distribution(v)) + "\n";
    out += "   SrunHost:Pid=(null):0\n\n";
  }
  return out;
}

}  // namespace fairway::cli
