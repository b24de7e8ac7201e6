#include "coordinator/cli/slurm_report_views.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "coordinator/cli/job_views.h"
#include "coordinator/cli/slurm_job_view.h"
#include "coordinator/cli/text_format.h"

namespace fairway::cli {
namespace {

// Slurm's fields: cut to the width, padded to it; right-justified unless `left`.
std::string field(std::string s, std::size_t width, bool left = false) {
  if (s.size() > width) s.resize(width);
  const std::string pad(width - s.size(), ' ');
  return left ? s + pad : pad + s;
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
    {"SITE", nullptr, true},          {"AGE", "age", true},         {"ASSOC", "assoc", false},
    {"FAIRSHARE", "fairshare", true}, {"JOBSIZE", "size", true},    {"PARTITION", "partition", true},
    {"QOS", "qos", true},             {"NICE", "nice", false, 11},
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
    if (layout.long_format || (c.in_default && (c.term == nullptr || weighed.contains(c.term)))) columns.push_back(&c);
  }
  const bool user = layout.long_format || layout.user_column;
  std::string out;
  // The header is a line like any other, with the column names for values.
  const auto line = [&](const std::string& id, const std::string& partition, const std::string& owner,
                        const std::string& priority, const std::vector<std::string>& values, const std::string& tres) {
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
  static constexpr const char* kHeaders[] = {"Account", "User", "RawShares", "NormShares", "RawUsage",
                                             "EffectvUsage", "FairShare"};
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
  // Which accounts show: those with a user line that shows (every one with all users).
  const auto user_shows = [&](const wire::ShareView& s) {
    return !s.user.empty() && (layout.only_user.empty() || s.user == layout.only_user);
  };
  std::set<std::string> accounts;
  double total_usage = 0;
  for (const auto& s : reply.rows) {
    if (s.user.empty()) total_usage += s.raw_usage;
    if (user_shows(s) || (s.user.empty() && layout.only_user.empty())) accounts.insert(s.account);
  }
  const std::string indent = layout.from_accounts ? "" : " ";
  if (!layout.from_accounts) emit({"root", "", "", fixed6(0), whole(total_usage), fixed6(1), ""});
  for (const auto& s : reply.rows) {
    if (!accounts.contains(s.account)) continue;
    if (s.user.empty()) {
      emit({indent + s.account, "", whole(s.raw_shares), fixed6(s.norm_shares), whole(s.raw_usage),
            fixed6(s.effective_usage), ""});
    } else if (user_shows(s)) {
      emit({indent + " " + s.account, s.user, whole(s.raw_shares), fixed6(s.norm_shares), whole(s.raw_usage),
            fixed6(s.effective_usage), fixed6(s.fairshare)});
    }
  }
  return out;
}

std::string render_squeue_steps(const wire::JobQueryReply& reply, bool header) {
  std::string out;
  const auto line = [&](const std::string& id, const std::string& name, const std::string& partition,
                        const std::string& user, const std::string& time, const std::string& nodes) {
    out += field(id, 15) + " " + field(name, 8) + " " + field(partition, 9) + " " + field(user, 8) + " " +
           field(time, 9) + " " + nodes + "\n";
  };
  if (header) line("STEPID", "NAME", "PARTITION", "USER", "TIME", "NODELIST");
  std::vector<const wire::JobView*> jobs;
  for (const auto& j : reply.jobs) jobs.push_back(&j);
  std::stable_sort(jobs.begin(), jobs.end(), [](const wire::JobView* a, const wire::JobView* b) { return a->id < b->id; });
  for (const wire::JobView* j : jobs) {
    if (j->state != JobState::kRunning) continue;
    std::vector<StepLine> lines = step_lines(*j);
    // The batch script's line comes first from step_lines; squeue lists it last.
    std::stable_partition(lines.begin(), lines.end(), [](const StepLine& l) { return l.id != "batch"; });
    for (const StepLine& l : lines) {
      if (l.view.state != JobState::kRunning) continue;
      line(std::to_string(j->id.value()) + "." + l.id, l.view.name, j->partition, j->user, elapsed_text(l.view, reply.now),
           allocated_hostlist(l.view));
    }
  }
  return out;
}

std::string render_scontrol_steps(const wire::JobQueryReply& reply, const std::string& step) {
  std::string out;
  std::vector<const wire::JobView*> jobs;
  for (const auto& j : reply.jobs) jobs.push_back(&j);
  std::stable_sort(jobs.begin(), jobs.end(), [](const wire::JobView* a, const wire::JobView* b) { return a->id < b->id; });
  for (const wire::JobView* j : jobs) {
    if (j->state != JobState::kRunning) continue;
    for (const StepLine& l : step_lines(*j)) {
      if (l.view.state != JobState::kRunning || (!step.empty() && l.id != step)) continue;
      const bool batch = l.id == "batch";
      const wire::JobView& v = l.view;
      out += "StepId=" + std::to_string(j->id.value()) + "." + l.id + " UserId=" + (j->uid ? std::to_string(*j->uid) : j->user) +
             " StartTime=" + (v.start_time ? format_local_time(*v.start_time) : "Unknown") + " TimeLimit=UNLIMITED\n";
      out += "   State=RUNNING Partition=" + j->partition + " NodeList=" + allocated_hostlist(v) + "\n";
      // Slurm counts no CPUs of its own for the batch step.
      out += "   Nodes=" + std::to_string(v.allocation.size()) + " CPUs=" + (batch ? "0" : std::to_string(job_cores(v))) +
             " Tasks=" + std::to_string(batch ? 1 : std::max(1, v.ntasks)) + " Name=" + v.name + " Network=(null)\n";
      out += "   TRES=" + (batch ? std::string("(null)")
                                 : "cpu=" + std::to_string(job_cores(v)) + ",mem=0,node=" + std::to_string(v.allocation.size())) +
             "\n";
      out += "   ResvPorts=(null)\n";
      const bool block = v.ntasks > static_cast<std::int32_t>(v.allocation.size());
      out += std::string("   CPUFreqReq=Default") + (batch ? "" : block ? " Dist=Block" : " Dist=Cyclic") + "\n";
      out += "   SrunHost:Pid=(null):0\n\n";
    }
  }
  return out;
}

}  // namespace fairway::cli
