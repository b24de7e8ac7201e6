#include "coordinator/sim/schedule_charts.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>

namespace fairway::sim {
namespace {

constexpr double kWidth = 900, kHeight = 420;
constexpr double kLeft = 80, kRight = 30, kTop = 50, kBottom = 60;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;
constexpr int kSamples = 300;
constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
    }
  }
  return out;
}

const char* colour(std::size_t i) {
  return kColours[i % std::size(kColours)];
}

std::string text(double x, double y, const std::string& s, const char* anchor = "middle", int size = 12) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + std::to_string(size) +
         "\" font-family=\"sans-serif\" text-anchor=\"" + anchor + "\">" + escape(s) + "</text>\n";
}

// The frame every chart shares: title, axes, y ticks from 0 to y_max, x labels given.
std::string frame(const std::string& title, const std::string& y_label, double y_max,
                  const std::vector<std::pair<double, std::string>>& x_ticks, const std::string& x_label) {
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" +
                  num(kHeight) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(kHeight) + "\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += text(kWidth / 2, 28, title, "middle", 16);
  s += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(kTop + kPlotH) + "\" x2=\"" + num(kLeft + kPlotW) +
       "\" y2=\"" + num(kTop + kPlotH) + "\" stroke=\"black\"/>\n";
  s += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(kTop) + "\" x2=\"" + num(kLeft) + "\" y2=\"" +
       num(kTop + kPlotH) + "\" stroke=\"black\"/>\n";
  for (int i = 0; i <= 4; ++i) {
    const double v = y_max * i / 4.0;
    const double y = kTop + kPlotH - kPlotH * i / 4.0;
    s += "<line x1=\"" + num(kLeft - 4) + "\" y1=\"" + num(y) + "\" x2=\"" + num(kLeft + kPlotW) +
         "\" y2=\"" + num(y) + "\" stroke=\"#dddddd\"/>\n";
    s += text(kLeft - 8, y + 4, num(v), "end", 11);
  }
  for (const auto& [x, label] : x_ticks) s += text(x, kTop + kPlotH + 18, label, "middle", 11);
  s += text(kLeft + kPlotW / 2, kHeight - 12, x_label);
  s += "<text x=\"18\" y=\"" + num(kTop + kPlotH / 2) +
       "\" font-size=\"12\" font-family=\"sans-serif\" text-anchor=\"middle\" "
       "transform=\"rotate(-90 18 " +
       num(kTop + kPlotH / 2) + ")\">" + escape(y_label) + "</text>\n";
  return s;
}

// Above the plot, right of the title, so no bar or line hides it.
std::string legend(const std::vector<ChartRun>& runs) {
  std::string s;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double y = 16 + 13.0 * static_cast<double>(i);
    s += "<rect x=\"" + num(kWidth - 200) + "\" y=\"" + num(y - 9) + "\" width=\"12\" height=\"10\" fill=\"" +
         colour(i) + "\"/>\n";
    s += text(kWidth - 182, y, runs[i].label, "start", 11);
  }
  return s;
}

struct Span {
  Time from, to;
};

Span span_of(const std::vector<ChartRun>& runs) {
  std::optional<Span> span;
  for (const ChartRun& r : runs) {
    for (const ScheduleRecord& rec : *r.records) {
      if (!span) span = Span{rec.submit, rec.end};
      span->from = min(span->from, rec.submit);
      span->to = max(span->to, rec.end);
    }
  }
  if (!span) span = Span{Time(), Time()};  // nothing ran: an empty chart
  if (span->to <= span->from) span->to = span->from + Duration::seconds(1);
  return *span;
}

// Hours, or days for long spans, since the first submission.
std::vector<std::pair<double, std::string>> time_ticks(Span sp, std::string& unit) {
  const double secs = static_cast<double>((sp.to - sp.from).count());
  const bool days = secs > 3 * 86400;
  unit = days ? "days since the first submission" : "hours since the first submission";
  std::vector<std::pair<double, std::string>> ticks;
  for (int i = 0; i <= 5; ++i) {
    const double at = secs * i / 5.0;
    ticks.emplace_back(kLeft + kPlotW * i / 5.0, num(at / (days ? 86400.0 : 3600.0)));
  }
  return ticks;
}

// A step function given by (time, change) events, sampled evenly over the span.
std::vector<double> sample(std::vector<std::pair<Time, double>> events, Span sp) {
  std::sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<double> out;
  double level = 0;
  std::size_t e = 0;
  const double secs = static_cast<double>((sp.to - sp.from).count());
  for (int i = 0; i < kSamples; ++i) {
    const Time t = sp.from + Duration::seconds(static_cast<std::int64_t>(secs * i / (kSamples - 1)));
    while (e < events.size() && events[e].first <= t) level += events[e++].second;
    out.push_back(level);
  }
  return out;
}

std::string polyline(const std::vector<double>& values, double y_max, std::size_t run) {
  std::string pts;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = kLeft + kPlotW * static_cast<double>(i) / static_cast<double>(values.size() - 1);
    const double y = kTop + kPlotH - kPlotH * std::min(values[i] / y_max, 1.0);
    pts += num(x) + "," + num(y) + " ";
  }
  return "<polyline fill=\"none\" stroke=\"" + std::string(colour(run)) +
         "\" stroke-width=\"1.5\" points=\"" + pts + "\"/>\n";
}

// Each job's first run: its wait is to its first start.
std::unordered_map<std::uint64_t, const ScheduleRecord*> first_runs(
    const std::vector<ScheduleRecord>& records) {
  std::unordered_map<std::uint64_t, const ScheduleRecord*> first;
  for (const ScheduleRecord& r : records) {
    auto [it, inserted] = first.emplace(r.id.value(), &r);
    if (!inserted && r.start < it->second->start) it->second = &r;
  }
  return first;
}

}  // namespace

std::string utilization_chart(const std::vector<ChartRun>& runs) {
  const Span sp = span_of(runs);
  std::string unit;
  std::string s = frame("Utilization over time", "cores in use (%)", 100, time_ticks(sp, unit), unit);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    std::vector<std::pair<Time, double>> events;
    const double total = static_cast<double>(std::max<std::int64_t>(runs[i].total_cores, 1));
    for (const ScheduleRecord& r : *runs[i].records) {
      const double share = 100.0 * static_cast<double>(r.allocation.total_cores()) / total;
      events.emplace_back(r.start, share);
      events.emplace_back(r.end, -share);
    }
    s += polyline(sample(std::move(events), sp), 100, i);
  }
  return s + legend(runs) + "</svg>\n";
}

std::string queue_length_chart(const std::vector<ChartRun>& runs) {
  const Span sp = span_of(runs);
  std::vector<std::vector<double>> series;
  double y_max = 1;
  for (const ChartRun& run : runs) {
    std::vector<std::pair<Time, double>> events;
    for (const auto& [id, r] : first_runs(*run.records)) {
      events.emplace_back(r->submit, 1.0);
      events.emplace_back(r->start, -1.0);
    }
    series.push_back(sample(std::move(events), sp));
    for (double v : series.back()) y_max = std::max(y_max, v);
  }
  std::string unit;
  std::string s = frame("Waiting jobs over time", "jobs waiting", y_max, time_ticks(sp, unit), unit);
  for (std::size_t i = 0; i < series.size(); ++i) s += polyline(series[i], y_max, i);
  return s + legend(runs) + "</svg>\n";
}

std::string wait_by_size_chart(const std::vector<ChartRun>& runs) {
  struct Bucket {
    std::int64_t up_to;
    const char* label;
  };
  constexpr Bucket kBuckets[] = {{1, "1"},        {4, "2-4"},
                                 {16, "5-16"},    {64, "17-64"},
                                 {256, "65-256"}, {std::numeric_limits<std::int64_t>::max(), "257+"}};
  constexpr std::size_t kN = std::size(kBuckets);
  std::vector<std::vector<double>> mean(runs.size(), std::vector<double>(kN, 0.0));
  double y_max = 1;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    std::vector<double> sum(kN, 0.0), count(kN, 0.0);
    for (const auto& [id, r] : first_runs(*runs[i].records)) {
      const std::int64_t cores = r->allocation.total_cores();
      std::size_t b = 0;
      while (b + 1 < kN && cores > kBuckets[b].up_to) ++b;
      sum[b] += static_cast<double>((r->start - r->submit).count()) / 60.0;
      count[b] += 1;
    }
    for (std::size_t b = 0; b < kN; ++b) {
      mean[i][b] = count[b] > 0 ? sum[b] / count[b] : 0.0;
      y_max = std::max(y_max, mean[i][b]);
    }
  }
  std::vector<std::pair<double, std::string>> ticks;
  const double group = kPlotW / static_cast<double>(kN);
  for (std::size_t b = 0; b < kN; ++b)
    ticks.emplace_back(kLeft + group * (static_cast<double>(b) + 0.5), kBuckets[b].label);
  std::string s = frame("Mean wait by job size", "mean wait (minutes)", y_max, ticks, "cores per job");
  const double bar = group * 0.8 / static_cast<double>(std::max<std::size_t>(runs.size(), 1));
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (std::size_t b = 0; b < kN; ++b) {
      const double h = kPlotH * mean[i][b] / y_max;
      const double x = kLeft + group * static_cast<double>(b) + group * 0.1 + bar * static_cast<double>(i);
      s += "<rect x=\"" + num(x) + "\" y=\"" + num(kTop + kPlotH - h) + "\" width=\"" + num(bar) +
           "\" height=\"" + num(h) + "\" fill=\"" + colour(i) + "\"><title>" + escape(runs[i].label) + ": " +
           num(mean[i][b]) + " min</title></rect>\n";
    }
  }
  return s + legend(runs) + "</svg>\n";
}

std::string gantt_chart(const ChartRun& run, const std::vector<NodeTopology>& nodes) {
  if (nodes.empty() || nodes.size() > kGanttMaxNodes || run.records->size() > kGanttMaxRuns) return {};
  const Span sp = span_of({run});
  std::string unit;
  std::string s =
      frame("Jobs on nodes", "node", static_cast<double>(nodes.size()), time_ticks(sp, unit), unit);
  const double secs = static_cast<double>((sp.to - sp.from).count());
  const double row = kPlotH / static_cast<double>(nodes.size());
  for (const ScheduleRecord& r : *run.records) {
    const double x = kLeft + kPlotW * static_cast<double>((r.start - sp.from).count()) / secs;
    const double w = std::max(kPlotW * static_cast<double>((r.end - r.start).count()) / secs, 0.5);
    const char* fill = colour(static_cast<std::size_t>(r.id.value()));
    auto cursor = r.allocation.cursor();
    for (NodeAllocation a; cursor.next(a);) {
      const double y = kTop + kPlotH - row * static_cast<double>(a.node.value() + 1);
      s += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" +
           num(row * 0.9) + "\" fill=\"" + fill + "\" fill-opacity=\"0.7\"><title>job " +
           std::to_string(r.id.value()) + " on " + escape(nodes[a.node.value()].name) + "</title></rect>\n";
    }
  }
  return s + "</svg>\n";
}

}  // namespace fairway::sim
