#include "coordinator/sim/chart_files.h"

#include <filesystem>
#include <fstream>

namespace fairway::sim {

Result<std::vector<std::string>> write_charts(const std::string& dir, const std::vector<ChartRun>& runs,
                                              const std::vector<NodeTopology>& nodes) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return make_error(ErrorCode::kIo, "--plots: cannot create '" + dir + "': " + ec.message());
  std::vector<std::pair<std::string, std::string>> files = {
      {"utilization.svg", utilization_chart(runs)},
      {"queue.svg", queue_length_chart(runs)},
      {"wait_by_size.svg", wait_by_size_chart(runs)},
  };
  if (!runs.empty()) {
    if (std::string gantt = gantt_chart(runs.front(), nodes); !gantt.empty())
      files.emplace_back("gantt.svg", gantt);
  }
  std::vector<std::string> written;
  for (const auto& [name, svg] : files) {
    const std::string path = dir + "/" + name;
    std::ofstream out(path);
    out << svg;
    if (!out) return make_error(ErrorCode::kIo, "--plots: cannot write '" + path + "'");
    written.push_back(path);
  }
  return written;
}

}  // namespace fairway::sim
