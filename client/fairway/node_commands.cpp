#include "client/fairway/commands.h"

#include <ctime>
#include <ostream>

#include "client/views/fairway/json_output.h"
#include "client/views/fairway/node_views.h"
#include "client/views/slurm/scontrol_node_view.h"
#include "client/views/slurm/sinfo_view.h"
#include "client/views/slurm/slurm_json.h"
#include "client/views/text_format.h"

// The node commands of commands.h: show node, nodes (and its sinfo layouts), drain and
// resume.
namespace fairway::cli {

int run_show_node(const std::string& name, bool json, bool scontrol, const Transport& transport,
                  const Output& io) {
  if (scontrol) {
    // Every node, filtered here: an unknown name is then scontrol's own words.
    auto all = ask<wire::NodeQueryReply>(wire::NodeQuery{}, transport, io);
    if (!all) return kExitFailure;
    bool found = false;
    for (const auto& n : all->nodes) {
      if (!name.empty() && n.name != name) continue;
      io.out << render_scontrol_node(n);
      found = true;
    }
    if (!found && !name.empty()) {
      io.err << "Node " << name << " not found\n";
      return kExitFailure;
    }
    return kExitOk;
  }
  // No name: every node (scontrol show node).
  auto reply = ask<wire::NodeQueryReply>(
      wire::NodeQuery{name.empty() ? std::vector<std::string>{} : std::vector<std::string>{name}}, transport,
      io);
  if (!reply) return kExitFailure;
  if (reply->nodes.empty()) return report_error(io, "node " + name + " not found", kExitFailure);
  for (const auto& n : reply->nodes) io.out << (json ? node_json(n) : render_node_detail(n));
  return kExitOk;
}

int run_nodes(const std::vector<std::string>& names, bool json, bool summarize, bool slurm_json,
              const Transport& transport, const Output& io) {
  auto reply = ask<wire::NodeQueryReply>(wire::NodeQuery{names}, transport, io);
  if (!reply) return kExitFailure;
  if (slurm_json) {
    io.out << sinfo_json(*reply);
  } else if (json) {
    io.out << nodes_json(*reply);
  } else {
    io.out << (summarize ? render_partition_summary(*reply) : render_nodes(*reply));
  }
  return kExitOk;
}

int run_node_layout(const NodeLayoutOptions& o, const Transport& transport, const Output& io) {
  auto fields = parse_sinfo_format(o.format);
  if (!fields) return report_error(io, fields.error().message, kExitUsage);
  auto partitions = ask<wire::PartitionQueryReply>(wire::PartitionQuery{o.partitions}, transport, io);
  if (!partitions) return kExitFailure;
  auto nodes = ask<wire::NodeQueryReply>(wire::NodeQuery{}, transport, io);
  if (!nodes) return kExitFailure;
  if (o.time_line && !o.noheader)
    io.out << format_ctime(Time::from_seconds(static_cast<std::int64_t>(std::time(nullptr)))) << "\n";
  io.out << (o.list_reasons
                 ? render_sinfo_reasons(*nodes, *fields, !o.noheader)
                 : render_sinfo(*partitions, *nodes, *fields, o.node_oriented, !o.noheader, o.summarize));
  return kExitOk;
}

int run_node_control(wire::NodeAction action, const std::vector<std::string>& nodes,
                     const std::string& reason, const std::string& user, const Transport& transport,
                     const Output& io) {
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
