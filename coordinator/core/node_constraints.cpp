#include "coordinator/core/node_constraints.h"

#include <algorithm>

#include "shared/base/try.h"

namespace fairway {
namespace {

Error bad_constraint(std::string_view c, std::string_view why) {
  return Error{ErrorCode::kInvalidArgument, "--constraint=" + std::string(c) + ": " + std::string(why)};
}

bool is_feature_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.';
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

}  // namespace

bool has_node_constraints(const JobSpec& spec) {
  return !spec.only_nodes.empty() || !spec.excluded_nodes.empty() || !spec.constraint.empty();
}

Result<bool> features_match(const std::vector<std::string>& features, std::string_view c) {
  const bool all = c.find('&') != std::string_view::npos;
  const bool any = c.find('|') != std::string_view::npos;
  if (all && any) return std::unexpected(bad_constraint(c, "'&' and '|' cannot be mixed (no brackets yet)"));
  const char sep = any ? '|' : '&';
  std::string_view rest = c;
  bool result = all || !any;  // an '&' chain or a single feature starts true
  while (true) {
    const auto at = rest.find(sep);
    const std::string_view word = rest.substr(0, at);
    if (word.empty() || !std::all_of(word.begin(), word.end(), is_feature_char)) {
      return std::unexpected(
          bad_constraint(c, "bad feature \"" + std::string(word) + "\" (letters, digits, '_', '-' and '.')"));
    }
    const bool has = std::find(features.begin(), features.end(), word) != features.end();
    result = any ? (result || has) : (result && has);
    if (at == std::string_view::npos) break;
    rest = rest.substr(at + 1);
  }
  return result;
}

Result<NodeMask> allowed_nodes(const ClusterState& cluster, PartitionIndex partition, const JobSpec& spec,
                               bool strict) {
  const PartitionState& p = cluster.partition(partition);
  NodeMask mask(cluster.node_count(), 0);
  if (spec.only_nodes.empty()) {
    for (NodeIndex n : p.nodes) mask[n.value()] = 1;
  } else {
    for (const std::string& name : spec.only_nodes) {
      const auto n = cluster.find_node(name);
      const bool in_partition = n && std::find(p.nodes.begin(), p.nodes.end(), *n) != p.nodes.end();
      if (!in_partition) {
        if (strict) {
          return invalid_argument("--nodelist: node '" + name + "' is not in partition '" + p.name + "'");
        }
        continue;
      }
      mask[n->value()] = 1;
    }
  }
  for (const std::string& name : spec.excluded_nodes) {
    if (const auto n = cluster.find_node(name)) mask[n->value()] = 0;
  }
  if (!spec.constraint.empty()) {
    for (NodeIndex n : p.nodes) {
      if (!mask[n.value()]) continue;
      FAIRWAY_TRY_ASSIGN(ok, features_match(cluster.node(n).topology.features, spec.constraint));
      if (!ok) mask[n.value()] = 0;
    }
  }
  if (strict && std::find(mask.begin(), mask.end(), 1) == mask.end()) {
    std::string what;
    if (!spec.only_nodes.empty()) what += " --nodelist=" + join(spec.only_nodes);
    if (!spec.excluded_nodes.empty()) what += " --exclude=" + join(spec.excluded_nodes);
    if (!spec.constraint.empty()) what += " --constraint=" + spec.constraint;
    return invalid_argument("no node of partition '" + p.name + "' is left by" + what);
  }
  return mask;
}

Status fits_on_nodes(const ClusterState& cluster, const NodeMask& allowed, const ResourceRequest& r) {
  std::int64_t nodes = 0, cores = 0, gpus = 0, suitable = 0;
  for (std::size_t i = 0; i < allowed.size() && i < cluster.node_count(); ++i) {
    if (!allowed[i]) continue;
    const NodeTopology& t = cluster.node(NodeIndex(static_cast<std::uint32_t>(i))).topology;
    std::int64_t g = 0;
    for (const auto& gpu : t.gpus) g += r.gpu_type.empty() || gpu.type == r.gpu_type ? 1 : 0;
    ++nodes;
    cores += t.total_cores();
    gpus += g;
    if (t.total_cores() >= r.cores && g >= r.gpus) ++suitable;
  }
  const bool fits = r.nodes > 0 ? suitable >= r.nodes : cores >= r.cores && gpus >= r.gpus;
  if (fits) return ok_status();
  return make_error(ErrorCode::kResourceExhausted,
                    "requests " + std::to_string(r.total_cores()) + " cores and " +
                        std::to_string(r.total_gpus()) + " GPUs" +
                        (r.nodes > 0 ? " on " + std::to_string(r.nodes) + " nodes" : std::string()) +
                        ", more than the nodes its --nodelist/--exclude/--constraint leave can ever hold (" +
                        std::to_string(cores) + " cores, " + std::to_string(gpus) + " GPUs on " +
                        std::to_string(nodes) + " nodes)");
}

}  // namespace fairway
