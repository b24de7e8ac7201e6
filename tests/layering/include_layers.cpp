// Include-graph check by directory: who may include whom, and which third-party headers
// each area may reach (ZeroMQ only in shared/net, SQLite only in the coordinator daemon...).
#include "include_layers.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <regex>
#include <set>

namespace fairway::layering {
namespace {

namespace fs = std::filesystem;

// Directories that hold code, each with the project directories it may include (itself
// always). Tests, benchmarks and tools sit outside the layers and may use anything.
const std::map<std::string, std::set<std::string>>& layer_table() {
  static const std::map<std::string, std::set<std::string>> table = {
      {"shared/base", {}},
      {"shared/model", {"shared/base"}},
      {"shared/config", {"shared/base", "shared/model"}},
      {"shared/wire", {"shared/base", "shared/model"}},
      {"shared/net", {"shared/base", "shared/model", "shared/wire"}},
      {"shared/systemd", {"shared/base"}},
      {"shared/auth", {"shared/base"}},
      {"coordinator/core", {"shared/base", "shared/model", "shared/config"}},
      {"coordinator/sim", {"coordinator/core", "shared/base", "shared/model", "shared/config"}},
      {"coordinator/daemon",
       {"coordinator/core", "shared/base", "shared/model", "shared/config", "shared/wire", "shared/net",
        "shared/systemd", "shared/auth"}},
      // The client (fairway and Slurm's command names) links no coordinator or agent code:
      // api/ is the typed calls over the transport, views/ renders replies, fairway/ and
      // slurm/ are the two command lines over them (Slurm's fill fairway's typed options).
      {"client/api",
       {"shared/base", "shared/model", "shared/config", "shared/wire", "shared/net", "shared/auth"}},
      {"client/views", {"client/api", "shared/base", "shared/model", "shared/config", "shared/wire"}},
      {"client/fairway",
       {"client/api", "client/views", "shared/base", "shared/model", "shared/config", "shared/wire",
        "shared/net", "shared/auth"}},
      {"client/slurm",
       {"client/api", "client/views", "client/fairway", "shared/base", "shared/model", "shared/config",
        "shared/wire"}},
      {"agent/core", {"shared/base", "shared/model", "shared/config"}},
      {"agent/os", {"agent/core", "shared/base", "shared/model", "shared/wire"}},
      // fairway-step: runs as the job's user; no libzmq (shared/net's plain step stream).
      {"agent/step", {"shared/base", "shared/model", "shared/wire", "shared/net"}},
      {"agent/daemon",
       {"agent/core", "agent/os", "agent/step", "shared/base", "shared/model", "shared/config", "shared/wire",
        "shared/net", "shared/systemd"}},
  };
  return table;
}

// Third-party headers that belong to one area only: the rest of the code reaches them
// through that area's interface.
struct OwnedHeader {
  std::regex header;
  std::set<std::string> owners;
};
const std::vector<OwnedHeader>& owned_headers() {
  static const std::vector<OwnedHeader> owned = {
      {std::regex(R"(^zmq(\.h|\.hpp|_addon\.hpp)$)"), {"shared/net"}},
      {std::regex(R"(^hwloc(\.h|/.*)$)"), {"agent/os"}},
      {std::regex(R"(^sqlite3\.h$)"), {"coordinator/daemon"}},
      {std::regex(R"(^systemd/.*)"), {"shared/systemd"}},
      {std::regex(R"(^munge\.h$)"), {"shared/auth"}},
      {std::regex(R"(^sodium(\.h|/.*)$)"), {"shared/auth"}},
  };
  return owned;
}

constexpr std::array<std::string_view, 4> kTopDirs = {"shared", "coordinator", "agent", "client"};

// "coordinator/core/x.h" -> "coordinator/core"; empty when not two levels deep.
std::string area_of(const std::string& rel) {
  const auto first = rel.find('/');
  if (first == std::string::npos) return {};
  const auto second = rel.find('/', first + 1);
  if (second == std::string::npos) return {};
  return rel.substr(0, second);
}

void check_file(const fs::path& root, const fs::path& file, const std::string& area,
                const std::set<std::string>& allowed, std::vector<Violation>& out) {
  static const std::regex include_re(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  const std::string rel = fs::relative(file, root).generic_string();
  std::ifstream in(file);
  std::string text;
  int line_no = 0;
  while (std::getline(in, text)) {
    ++line_no;
    std::smatch m;
    if (!std::regex_search(text, m, include_re)) continue;
    const std::string target = m[2].str();
    if (m[1].str() == "\"") {
      const std::string to = area_of(target);
      if (to.empty() || to == area) continue;  // a sibling file of the same directory
      if (!layer_table().contains(to)) {
        out.push_back({rel, line_no, "includes \"" + target + "\" from unknown area '" + to + "'"});
      } else if (!allowed.contains(to)) {
        out.push_back({rel, line_no, area + " may not include " + to + " (\"" + target + "\")"});
      }
      continue;
    }
    for (const auto& owned : owned_headers()) {
      if (std::regex_search(target, owned.header) && !owned.owners.contains(area)) {
        std::string owners;
        for (const auto& o : owned.owners) owners += (owners.empty() ? "" : ", ") + o;
        out.push_back({rel, line_no, "<" + target + "> belongs to " + owners + ", not " + area});
      }
    }
  }
}

}  // namespace

std::vector<Violation> check_tree(const fs::path& root) {
  std::vector<Violation> out;
  for (std::string_view top : kTopDirs) {
    const fs::path top_dir = root / top;
    if (!fs::is_directory(top_dir)) continue;
    for (const auto& entry : fs::directory_iterator(top_dir)) {
      if (!entry.is_directory()) continue;
      const std::string area = fs::relative(entry.path(), root).generic_string();
      const auto rule = layer_table().find(area);
      if (rule == layer_table().end()) {
        out.push_back({area, 0, "directory is in no layer: add it to tests/layering's table"});
        continue;
      }
      std::vector<fs::path> files;
      for (const auto& f : fs::recursive_directory_iterator(entry.path())) {
        const auto ext = f.path().extension();
        if (f.is_regular_file() && (ext == ".h" || ext == ".cpp")) files.push_back(f.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) check_file(root, f, area, rule->second, out);
    }
  }
  return out;
}

}  // namespace fairway::layering
