// `fairway report` (sreport cluster AccountUtilizationByUser): core-hours and GPU-hours of
// finished jobs per account and user over a period, for allocation tracking (Titan,
// Kebnekaise). Pure apart from the transport and streams it is given.
#pragma once

#include <string>

#include "client/fairway/commands.h"

namespace fairway::cli {

struct ReportOptions {
  std::string start, end;  // -S/-E as history takes them; default: this month so far
  std::string account, user;
  bool parsable = false;
  bool json = false;
};

int run_usage_report(const ReportOptions& o, Time now, const Transport& transport, const Output& io);

// Usage of `reply`'s jobs within [from, to): each job's run clipped to the period.
std::string render_usage_report(const wire::JobQueryReply& reply, Time from, Time to, bool parsable,
                                bool json);

}  // namespace fairway::cli
