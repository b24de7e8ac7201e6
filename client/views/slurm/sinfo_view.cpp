#include "client/views/slurm/sinfo_view.h"

#include <algorithm>
#include <map>

#include "client/views/text_format.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

constexpr std::string_view kLetters = "PRalDtTNcmGCEsrhguUHzdwfF";

// A row: one partition and the nodes it shows (all in one state unless node-oriented);
// sinfo -R's rows are nodes sharing a reason, with no partition.
struct SinfoRow {
  const wire::PartitionView* partition = nullptr;
  std::vector<const wire::NodeView*> nodes;
};

std::string short_state(const std::string& state) {
  static const std::map<std::string, std::string> names = {{"idle", "idle"},       {"mixed", "mix"},
                                                           {"allocated", "alloc"}, {"drained", "drain"},
                                                           {"draining", "drng"},   {"down", "down"}};
  auto it = names.find(state);
  return it != names.end() ? it->second : state;
}

// sinfo's time limits: "infinite", else as squeue writes times ("7-00:00:00", "30:00").
std::string limit_text(Duration d) {
  return d.is_infinite() ? "infinite" : format_elapsed(d);
}

// The same for every node: "28"; else the smallest with "+": "28+".
template <typename Get>
std::string uniform(const std::vector<const wire::NodeView*>& nodes, Get get) {
  if (nodes.empty()) return "0";
  auto lo = get(*nodes.front()), hi = lo;
  for (const auto* n : nodes) {
    lo = std::min(lo, get(*n));
    hi = std::max(hi, get(*n));
  }
  return std::to_string(lo) + (lo == hi ? "" : "+");
}

std::string value_of(const SinfoRow& row, char letter) {
  const auto& nodes = row.nodes;
  if (row.partition == nullptr && std::string_view("PRalsrhg").find(letter) != std::string_view::npos)
    return "n/a";
  const wire::NodeView* first = nodes.empty() ? nullptr : nodes.front();
  switch (letter) {
    // Who set the reason and when; Slurm's words for a reason it knows no setter of.
    case 'u':
      return first == nullptr || first->reason_user.empty() ? "Unknown" : first->reason_user;
    case 'U':
      if (first == nullptr || first->reason_user.empty()) return "Unknown";
      return first->reason_user + (first->reason_uid ? "(" + std::to_string(*first->reason_uid) + ")" : "");
    case 'H':
      return first == nullptr || !first->reason_time ? "Unknown" : format_local_time(*first->reason_time);
    // sockets:cores:threads, temporary disk, weight and features (sinfo -N -l).
    case 'z':
      if (first == nullptr) return "0:0:0";
      return std::to_string(first->sockets) + ":" +
             std::to_string(first->sockets > 0 ? first->cores / first->sockets : 0) + ":" +
             std::to_string(first->threads_per_core);
    case 'd':
      return "0";
    case 'w':
      return "1";
    case 'f':
      return first == nullptr || first->features.empty() ? "(null)" : join(first->features, ",");
    case 'P':
      return row.partition->name + (row.partition->is_default ? "*" : "");
    case 'R':
      return row.partition->name;
    case 'a':
      return "up";
    case 'l':
      return limit_text(row.partition->max_time);
    case 'D':
      return std::to_string(nodes.size());
    case 't':
      return nodes.empty() ? "n/a" : short_state(nodes.front()->state);
    case 'T':
      return nodes.empty() ? "n/a" : nodes.front()->state;  // sinfo's long names are lowercase
    // What Fairway's partitions never restrict: any job size, any user, no root-only
    // partitions; nodes are shared unless the partition hands out whole ones.
    case 's':
      return "1-infinite";
    case 'r':
      return "no";
    case 'h':
      return row.partition->allocation_unit == "node" ? "EXCLUSIVE" : "NO";
    case 'g':
      return "all";
    case 'N': {
      std::vector<std::string> names;
      for (const auto* n : nodes) names.push_back(n->name);
      // As Slurm's host lists: sorted, whatever order the partition lists its nodes in.
      std::sort(names.begin(), names.end());
      return names.empty() ? "" : compress_hostlist(names);
    }
    case 'c':
      return uniform(nodes, [](const wire::NodeView& n) { return n.cores * n.threads_per_core; });
    case 'm':
      return uniform(nodes, [](const wire::NodeView& n) { return n.memory_mb; });
    case 'G': {
      std::int32_t gpus = 0;
      std::string type;
      for (const auto* n : nodes) {
        gpus = std::max(gpus, n->gpus);
        if (!n->gpu_types.empty()) type = n->gpu_types.front();
      }
      return gpus == 0 ? "(null)" : "gpu:" + (type.empty() ? "" : type + ":") + std::to_string(gpus);
    }
    case 'C': {
      std::int64_t allocated = 0, idle = 0, other = 0, total = 0;
      for (const auto* n : nodes) {
        total += n->cores;
        if (n->state == "down" || n->state == "drained") {
          other += n->cores;
        } else {
          allocated += n->cores_used;
          idle += n->cores - n->cores_used;
        }
      }
      return std::to_string(allocated) + "/" + std::to_string(idle) + "/" + std::to_string(other) + "/" +
             std::to_string(total);
    }
    case 'E':
      return nodes.empty() || nodes.front()->reason.empty() ? "none" : nodes.front()->reason;
    case 'F': {
      // As sinfo: a node down or draining counts as other whatever it runs.
      int allocated = 0, idle = 0, other = 0;
      for (const auto* n : nodes) {
        if (n->state == "idle") {
          ++idle;
        } else if (n->state == "allocated" || n->state == "mixed" || n->state == "completing") {
          ++allocated;
        } else {
          ++other;
        }
      }
      return std::to_string(allocated) + "/" + std::to_string(idle) + "/" + std::to_string(other) + "/" +
             std::to_string(nodes.size());
    }
  }
  return {};
}

std::string title_of(char letter) {
  switch (letter) {
    case 'P':
    case 'R':
      return "PARTITION";
    case 'a':
      return "AVAIL";
    case 'l':
      return "TIMELIMIT";
    case 'D':
      return "NODES";
    case 't':
    case 'T':
      return "STATE";
    case 'N':
      return "NODELIST";
    case 'c':
      return "CPUS";
    case 'm':
      return "MEMORY";
    case 'G':
      return "GRES";
    case 'C':
      return "CPUS(A/I/O/T)";
    case 'E':
      return "REASON";
    case 'F':
      return "NODES(A/I/O/T)";
    case 's':
      return "JOB_SIZE";
    case 'r':
      return "ROOT";
    case 'h':
      return "OVERSUBSCRIBE";  // cut to OVERSUBS by -l's width
    case 'g':
      return "GROUPS";
    case 'u':
    case 'U':
      return "USER";
    case 'H':
      return "TIMESTAMP";
    case 'z':
      return "S:C:T";
    case 'd':
      return "TMP_DISK";
    case 'w':
      return "WEIGHT";
    case 'f':
      return "AVAIL_FEATURES";  // cut to AVAIL_FE by -N -l's width
  }
  return {};
}

}  // namespace

Result<std::vector<PercentField>> parse_sinfo_format(const std::string& format) {
  return parse_percent_format(
      format, [](char c) { return kLetters.find(c) != std::string_view::npos; }, std::string(kLetters));
}

std::string render_sinfo(const wire::PartitionQueryReply& partitions, const wire::NodeQueryReply& nodes,
                         const std::vector<PercentField>& fields, bool node_oriented, bool header,
                         bool summarize) {
  std::map<std::string, const wire::NodeView*> by_name;
  for (const auto& n : nodes.nodes) by_name[n.name] = &n;
  std::vector<SinfoRow> rows;
  for (const auto& p : partitions.partitions) {
    std::vector<const wire::NodeView*> members;
    for (const auto& name : p.nodes) {
      if (auto it = by_name.find(name); it != by_name.end()) members.push_back(it->second);
    }
    if (node_oriented) {
      for (const auto* n : members) rows.push_back({&p, {n}});
      continue;
    }
    if (summarize) {
      rows.push_back({&p, members});
      continue;
    }
    // One row per state, in the order the states first appear.
    std::vector<SinfoRow> groups;
    for (const auto* n : members) {
      auto g = std::find_if(groups.begin(), groups.end(),
                            [&](const SinfoRow& r) { return r.nodes.front()->state == n->state; });
      if (g == groups.end()) {
        groups.push_back({&p, {n}});
      } else {
        g->nodes.push_back(n);
      }
    }
    if (groups.empty()) groups.push_back({&p, {}});
    rows.insert(rows.end(), groups.begin(), groups.end());
  }
  if (node_oriented) {
    std::stable_sort(rows.begin(), rows.end(), [](const SinfoRow& a, const SinfoRow& b) {
      return a.nodes.front()->name < b.nodes.front()->name;
    });
  }
  return render_percent_rows(
      fields, rows.size(), [&](std::size_t r, char letter) { return value_of(rows[r], letter); }, title_of,
      header, false);
}

std::string render_sinfo_reasons(const wire::NodeQueryReply& nodes, const std::vector<PercentField>& fields,
                                 bool header) {
  std::vector<const wire::NodeView*> listed;
  for (const auto& n : nodes.nodes) {
    if (!n.reason.empty() && (n.state == "down" || n.state == "drained" || n.state == "draining"))
      listed.push_back(&n);
  }
  std::stable_sort(listed.begin(), listed.end(),
                   [](const wire::NodeView* a, const wire::NodeView* b) { return a->name < b->name; });
  // Nodes sharing a reason, its setter, its time and their state make one row.
  std::vector<SinfoRow> rows;
  for (const auto* n : listed) {
    auto same = std::find_if(rows.begin(), rows.end(), [&](const SinfoRow& r) {
      const wire::NodeView& o = *r.nodes.front();
      return o.reason == n->reason && o.reason_user == n->reason_user && o.reason_uid == n->reason_uid &&
             o.reason_time == n->reason_time && o.state == n->state;
    });
    if (same == rows.end()) {
      rows.push_back({nullptr, {n}});
    } else {
      same->nodes.push_back(n);
    }
  }
  return render_percent_rows(
      fields, rows.size(), [&](std::size_t r, char letter) { return value_of(rows[r], letter); }, title_of,
      header, false);
}

}  // namespace fairway::cli
