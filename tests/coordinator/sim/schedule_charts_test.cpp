// fairway-sim --plots: the charts of two replays of one workload (EASY and FCFS) are
// well-formed SVG with what they claim to draw, and a real renderer (rsvg-convert, which
// scripts/install-deps installs) turns each into a PNG.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "coordinator/sim/chart_files.h"
#include "tests/coordinator/sim/jsonl_scenario.h"
#include "tests/coordinator/sim/temp_dir_test_base.h"

namespace fairway::sim {
namespace {

constexpr const char* kMachine = R"(
[[nodes]]
names = "n[1-2]"
cores_per_socket = 4
[scheduler]
backfill = "%"
)";

constexpr const char* kJobs = R"({"id":1,"submit":0,"user":"a","cores":8,"time_limit":1000,"runtime":900}
{"id":2,"submit":10,"user":"b","cores":8,"time_limit":1000,"runtime":500}
{"id":3,"submit":20,"user":"c","cores":1,"time_limit":300,"runtime":200}
{"id":4,"submit":30,"user":"d","cores":2,"time_limit":300,"runtime":100}
)";

std::string config_for(const std::string& mode) {
  std::string t = kMachine;
  t.replace(t.find('%'), 1, mode);
  return t;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Every element closed, in order: enough to know a viewer will parse what we write.
bool well_formed(const std::string& svg, std::string& why) {
  std::vector<std::string> open;
  for (std::size_t at = svg.find('<'); at != std::string::npos; at = svg.find('<', at + 1)) {
    const std::size_t end = svg.find('>', at);
    if (end == std::string::npos) return why = "a tag never ends", false;
    const std::string tag = svg.substr(at + 1, end - at - 1);
    if (tag.empty()) return why = "an empty tag", false;
    if (tag.back() == '/') continue;
    if (tag.front() == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) return why = "</" + name + "> closes nothing open", false;
      open.pop_back();
      continue;
    }
    open.push_back(tag.substr(0, tag.find_first_of(" \n")));
  }
  if (!open.empty()) return why = "<" + open.back() + "> is never closed", false;
  return true;
}

class ScheduleCharts : public TempDirTest {};

TEST_F(ScheduleCharts, TwoReplaysAreDrawnOverEachOtherAndRender) {
  auto easy = scenario::simulate_jsonl(config_for("easy"), kJobs);
  auto fcfs = scenario::simulate_jsonl(config_for("none"), kJobs);
  ASSERT_EQ(easy.result.records.size(), 4u);
  const std::vector<ChartRun> runs = {{"easy", &easy.result.records, 8},
                                      {"fcfs & <co>", &fcfs.result.records, 8}};
  auto files = write_charts(dir_.string(), runs, easy.result.nodes);
  ASSERT_TRUE(files) << files.error().message;
  ASSERT_EQ(files->size(), 4u);  // two nodes: the Gantt chart too

  for (const std::string& f : *files) {
    SCOPED_TRACE(f);
    const std::string svg = read(f);
    std::string why;
    EXPECT_TRUE(well_formed(svg, why)) << why;
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    if (f.ends_with("gantt.svg")) {
      // Four jobs: the 8-core ones on both nodes, the others on one.
      EXPECT_EQ(count(svg, "<title>job "), 6u);
      continue;
    }
    EXPECT_NE(svg.find(">easy</text>"), std::string::npos);
    EXPECT_NE(svg.find(">fcfs &amp; &lt;co&gt;</text>"), std::string::npos);  // labels are escaped
  }
  EXPECT_EQ(count(read(dir_.string() + "/utilization.svg"), "<polyline"), 2u);
  EXPECT_EQ(count(read(dir_.string() + "/queue.svg"), "<polyline"), 2u);
  EXPECT_EQ(count(read(dir_.string() + "/wait_by_size.svg"), "<rect x="), 2u * 6u + 2u);  // bars + legend

  // A real renderer accepts them.
  for (const std::string& f : *files) {
    const std::string png = f + ".png";
    const std::string cmd = "rsvg-convert -o '" + png + "' '" + f + "' 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0)
        << "rsvg-convert (Debian librsvg2-bin, from scripts/install-deps) failed on " << f;
    const std::string bytes = read(png);
    ASSERT_GT(bytes.size(), 8u);
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
  }
}

TEST_F(ScheduleCharts, ABigMachineGetsNoGanttChart) {
  std::vector<NodeTopology> nodes;
  for (std::size_t i = 0; i < kGanttMaxNodes + 1; ++i)
    nodes.push_back(NodeTopology::uniform("n" + std::to_string(i), 1, 1));
  std::vector<ScheduleRecord> none;
  EXPECT_TRUE(gantt_chart({"x", &none, 1}, nodes).empty());
  auto files = write_charts(dir_.string() + "/sub/dir", {{"x", &none, 1}}, nodes);
  ASSERT_TRUE(files) << files.error().message;
  EXPECT_EQ(files->size(), 3u);
}

}  // namespace
}  // namespace fairway::sim
