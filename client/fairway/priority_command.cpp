#include "client/fairway/priority_command.h"

#include <algorithm>
#include <cctype>
#include <ostream>

#include "client/views/slurm/slurm_report_views.h"
#include "client/views/text_format.h"

#include <nlohmann/json.hpp>

namespace fairway::cli {
namespace {

std::vector<const wire::JobView*> ranked(const wire::JobQueryReply& reply) {
  std::vector<const wire::JobView*> jobs;
  for (const auto& j : reply.jobs) jobs.push_back(&j);
  std::stable_sort(jobs.begin(), jobs.end(), [](const wire::JobView* a, const wire::JobView* b) {
    if (a->priority != b->priority) return a->priority > b->priority;
    return a->id < b->id;
  });
  return jobs;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

int run_priority(const PriorityOptions& o, const Transport& transport, const Output& io) {
  wire::JobQuery q;
  q.user = o.user;
  q.partition = o.partition;
  // Only jobs that compete for a start: held jobs do not, running ones already won.
  if (auto st = add_state_and_id_filters(q, "PD,BL", o.jobs); !st) {
    return report_error(io, st.error().message, kExitUsage);
  }
  auto reply = ask_all_pages(q, transport, io);
  if (!reply) return kExitFailure;
  if (o.sprio) {
    io.out << render_sprio(*reply, SprioLayout{o.long_format, !o.user.empty(), !o.noheader});
    return kExitOk;
  }
  io.out << (o.json ? priority_json(*reply) : render_priority(*reply, o.raw));
  return kExitOk;
}

std::string render_priority(const wire::JobQueryReply& reply, bool raw) {
  // Every job of one coordinator carries the same terms in the same order; the union keeps
  // the first-seen order should a reply mix jobs from before and after a reconfiguration.
  std::vector<std::string> terms;
  for (const auto& j : reply.jobs) {
    for (const auto& f : j.priority_factors) {
      if (std::find(terms.begin(), terms.end(), f.name) == terms.end()) terms.push_back(f.name);
    }
  }
  std::vector<std::string> header = {"JOBID", "PARTITION", "USER", "PRIORITY"};
  for (const auto& t : terms) header.push_back(upper(t));
  std::vector<std::vector<std::string>> rows;
  for (const wire::JobView* j : ranked(reply)) {
    std::vector<std::string> row = {std::to_string(j->id.value()), j->partition, j->user,
                                    format_number(j->priority)};
    for (const auto& t : terms) {
      auto it = std::find_if(j->priority_factors.begin(), j->priority_factors.end(),
                             [&](const wire::PriorityFactor& f) { return f.name == t; });
      row.push_back(it == j->priority_factors.end() ? "" : format_number(raw ? it->raw : it->value));
    }
    rows.push_back(std::move(row));
  }
  return render_table(header, rows);
}

std::string priority_json(const wire::JobQueryReply& reply) {
  nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
  for (const wire::JobView* j : ranked(reply)) {
    nlohmann::ordered_json factors = nlohmann::ordered_json::object();
    nlohmann::ordered_json raw = nlohmann::ordered_json::object();
    for (const auto& f : j->priority_factors) {
      factors[f.name] = f.value;
      raw[f.name] = f.raw;
    }
    jobs.push_back({{"id", j->id.value()},
                    {"partition", j->partition},
                    {"user", j->user},
                    {"priority", j->priority},
                    {"factors", factors},
                    {"raw_factors", raw}});
  }
  return nlohmann::ordered_json{{"jobs", jobs}}.dump(2) + "\n";
}

}  // namespace fairway::cli
