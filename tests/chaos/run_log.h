// What the chaos test reads back: job runs from the jobs' own log, and fields and stamps of
// the coordinator's log lines. Pure functions; thread-safe.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <map>
#include <sstream>
#include <string>

#include "process_reaper.h"

namespace fairway::chaos {

// One run of a job as its script logged it: start, last sign of life, and whether it ended.
struct JobRun {
  std::int64_t job = 0;
  std::string node;
  std::string pid;
  std::int64_t start = 0;
  std::int64_t last = 0;
  bool ended = false;
  std::int64_t end = 0;
};

// "YYYY-MM-DDTHH:MM:SS.mmmZ" -> ns since the epoch (0 when malformed).
inline std::int64_t parse_stamp(const std::string& s) {
  std::tm tm{};
  int ms = 0;
  if (std::sscanf(s.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &ms) != 7) {
    return 0;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<std::int64_t>(timegm(&tm)) * 1000000000 + static_cast<std::int64_t>(ms) * 1000000;
}

inline std::string field(const std::string& line, const std::string& key) {
  const auto p = line.find(" " + key + "=");
  if (p == std::string::npos) return {};
  auto b = p + key.size() + 2;
  if (b < line.size() && line[b] == '"') {
    const auto e = line.find('"', b + 1);
    return line.substr(b + 1, e == std::string::npos ? std::string::npos : e - b - 1);
  }
  const auto e = line.find(' ', b);
  return line.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

// Runs keyed "job node pid", from lines "start|tick|end JOB NODE PID NS".
inline std::map<std::string, JobRun> read_runs(const std::string& path) {
  std::map<std::string, JobRun> runs;
  std::istringstream in(slurp(path));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string what, node, pid;
    std::int64_t job = 0, ts = 0;
    if (!(ls >> what >> job >> node >> pid >> ts)) continue;
    JobRun& r = runs[std::to_string(job) + " " + node + " " + pid];
    if (r.start == 0) {
      r.job = job;
      r.node = node;
      r.pid = pid;
      r.start = ts;
    }
    r.start = std::min(r.start, ts);
    r.last = std::max(r.last, ts);
    if (what == "end") {
      r.ended = true;
      r.end = ts;
    }
  }
  return runs;
}

}  // namespace fairway::chaos
