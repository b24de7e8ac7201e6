#include "shared/model/cpu_bind.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace fairway {
namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find(sep, begin);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

constexpr int kMaxCpu = 65535;

Result<std::vector<int>> cpus_of_mask(std::string_view word) {
  if (word.starts_with("0x") || word.starts_with("0X")) word.remove_prefix(2);
  if (word.empty()) return invalid_argument("an empty mask");
  std::vector<int> cpus;
  int bit = 0;
  for (auto it = word.rbegin(); it != word.rend(); ++it, bit += 4) {
    int v = 0;
    const auto [end, ec] = std::from_chars(&*it, &*it + 1, v, 16);
    if (ec != std::errc() || bit > kMaxCpu)
      return invalid_argument("'" + std::string(word) + "' is not a hex mask");
    for (int b = 0; b < 4; ++b) {
      if ((v >> b) & 1) cpus.push_back(bit + b);
    }
  }
  std::sort(cpus.begin(), cpus.end());
  if (cpus.empty()) return invalid_argument("mask '" + std::string(word) + "' names no CPU");
  return cpus;
}

}  // namespace

Result<CpuBind> parse_cpu_bind(std::string_view text) {
  CpuBind b;
  if (text.empty()) return b;
  bool typed = false;
  for (std::string_view word : split(text, ',')) {
    const auto fail = [&](const std::string& why) {
      return invalid_argument("--cpu-bind=" + std::string(text) + ": " + why);
    };
    if (word == "verbose" || word == "v") {
      b.verbose = true;
      continue;
    }
    if (word == "quiet" || word == "q") {
      b.verbose = false;
      continue;
    }
    if (typed) {
      // map_cpu:/mask_cpu: lists are comma separated: the words after the type are its.
      if (b.type != CpuBindType::kMapCpu && b.type != CpuBindType::kMaskCpu) {
        return fail("one binding type only, got '" + std::string(word) + "' after another");
      }
      word = std::string_view(word);
    } else if (word == "none" || word == "no") {
      b.type = CpuBindType::kNone, typed = true;
      continue;
    } else if (word == "cores") {
      b.type = CpuBindType::kCores, typed = true;
      continue;
    } else if (word == "threads") {
      b.type = CpuBindType::kThreads, typed = true;
      continue;
    } else if (word == "sockets") {
      b.type = CpuBindType::kSockets, typed = true;
      continue;
    } else if (word.starts_with("map_cpu:")) {
      b.type = CpuBindType::kMapCpu, typed = true;
      word.remove_prefix(8);
    } else if (word.starts_with("mask_cpu:")) {
      b.type = CpuBindType::kMaskCpu, typed = true;
      word.remove_prefix(9);
    } else {
      return fail("'" + std::string(word) +
                  "' is not one of none, cores, threads, sockets, map_cpu:, mask_cpu:, verbose");
    }
    if (b.type == CpuBindType::kMapCpu) {
      int cpu = -1;
      const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), cpu);
      if (ec != std::errc() || end != word.data() + word.size() || cpu < 0 || cpu > kMaxCpu) {
        return fail("'" + std::string(word) + "' is not a CPU number");
      }
      b.lists.push_back({cpu});
    } else {
      auto cpus = cpus_of_mask(word);
      if (!cpus) return fail(cpus.error().message);
      b.lists.push_back(std::move(*cpus));
    }
  }
  if ((b.type == CpuBindType::kMapCpu || b.type == CpuBindType::kMaskCpu) && b.lists.empty()) {
    return invalid_argument("--cpu-bind=" + std::string(text) + ": the list is empty");
  }
  return b;
}

Result<bool> parse_cyclic_distribution(std::string_view text) {
  if (text.empty()) return false;
  const std::string_view main = text.substr(0, std::min(text.find(','), text.size()));
  const auto levels = split(main, ':');
  for (std::string_view l : levels) {
    if (l != "block" && l != "cyclic" && l != "fcyclic" && l != "*" && l != "plane") {
      return invalid_argument("--distribution=" + std::string(text) + ": '" + std::string(l) +
                              "' is not block, cyclic or fcyclic");
    }
  }
  if (levels.front() == "fcyclic") {
    return invalid_argument("--distribution=" + std::string(text) + ": fcyclic is a socket-level choice");
  }
  return levels.front() == "cyclic";
}

std::vector<std::int32_t> node_ranks(const std::vector<std::int32_t>& tasks_per_node, std::size_t node_index,
                                     bool cyclic) {
  std::vector<std::int32_t> out;
  if (node_index >= tasks_per_node.size()) return out;
  if (!cyclic) {
    std::int32_t first = 0;
    for (std::size_t i = 0; i < node_index; ++i) first += tasks_per_node[i];
    for (std::int32_t l = 0; l < tasks_per_node[node_index]; ++l) out.push_back(first + l);
    return out;
  }
  // Round the nodes: each with tasks left takes the next rank.
  std::vector<std::int32_t> left = tasks_per_node;
  std::int32_t rank = 0;
  for (bool any = true; any;) {
    any = false;
    for (std::size_t i = 0; i < left.size(); ++i) {
      if (left[i] == 0) continue;
      --left[i];
      any = true;
      if (i == node_index) out.push_back(rank);
      ++rank;
    }
  }
  return out;
}

std::vector<std::vector<int>> task_cpus(const CpuBind& bind, const std::vector<std::vector<int>>& core_pus,
                                        std::int32_t local_tasks, std::int32_t cpus_per_task) {
  const auto n = static_cast<std::size_t>(std::max(0, local_tasks));
  std::vector<std::vector<int>> out(n);
  std::vector<int> all;
  for (const auto& c : core_pus) all.insert(all.end(), c.begin(), c.end());
  std::sort(all.begin(), all.end());
  switch (bind.type) {
    case CpuBindType::kNone:
      return out;
    case CpuBindType::kMapCpu:
    case CpuBindType::kMaskCpu:
      for (std::size_t t = 0; t < n; ++t) out[t] = bind.lists[t % bind.lists.size()];
      return out;
    case CpuBindType::kSockets:
      // No socket is known to the relay: every task gets the step's CPUs on the node.
      for (auto& t : out) t = all;
      return out;
    case CpuBindType::kCores:
    case CpuBindType::kThreads:
      break;
  }
  const bool threads = bind.type == CpuBindType::kThreads;
  // The units tasks are bound to: cores (with their PUs) or single PUs.
  std::vector<std::vector<int>> units;
  if (threads) {
    for (int pu : all) units.push_back({pu});
  } else {
    units = core_pus;
  }
  if (units.empty() || n == 0) return out;
  const std::size_t share =
      std::max<std::size_t>({1, static_cast<std::size_t>(std::max(0, cpus_per_task)), units.size() / n});
  for (std::size_t t = 0; t < n; ++t) {
    std::set<int> cpus;
    for (std::size_t k = 0; k < share; ++k) {
      const auto& u = units[(t * share + k) % units.size()];
      cpus.insert(u.begin(), u.end());
    }
    out[t].assign(cpus.begin(), cpus.end());
  }
  return out;
}

std::string cpu_mask_hex(const std::vector<int>& cpus) {
  if (cpus.empty()) return "0x0";
  const int top = *std::max_element(cpus.begin(), cpus.end());
  std::string digits(static_cast<std::size_t>(top / 4 + 1), '0');
  for (int c : cpus) {
    char& d = digits[digits.size() - 1 - static_cast<std::size_t>(c / 4)];
    int v = d <= '9' ? d - '0' : d - 'a' + 10;
    v |= 1 << (c % 4);
    d = static_cast<char>(v < 10 ? '0' + v : 'a' + v - 10);
  }
  return "0x" + digits;
}

std::vector<std::pair<std::string, std::string>> cpu_bind_environment(
    const CpuBind& bind, const std::vector<std::vector<int>>& per_task) {
  const std::string verbose = bind.verbose ? "verbose" : "quiet";
  if (bind.type == CpuBindType::kNone) {
    return {{"SLURM_CPU_BIND", verbose + ",none"},
            {"SLURM_CPU_BIND_TYPE", "none"},
            {"SLURM_CPU_BIND_LIST", ""},
            {"SLURM_CPU_BIND_VERBOSE", verbose}};
  }
  // Slurm hands every binding to the tasks as the masks it computed (mask_cpu:).
  std::string list;
  for (const auto& cpus : per_task) list += (list.empty() ? "" : ",") + cpu_mask_hex(cpus);
  return {{"SLURM_CPU_BIND", verbose + ",mask_cpu:" + list},
          {"SLURM_CPU_BIND_TYPE", "mask_cpu:"},
          {"SLURM_CPU_BIND_LIST", list},
          {"SLURM_CPU_BIND_VERBOSE", verbose}};
}

}  // namespace fairway
