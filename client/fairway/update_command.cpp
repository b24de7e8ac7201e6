#include "client/fairway/update_command.h"

#include <charconv>
#include <ostream>

#include "client/api/begin_time.h"
#include "client/views/text_format.h"
#include "shared/base/duration_format.h"
#include "shared/base/try.h"

namespace fairway::cli {

Result<wire::JobUpdate> parse_job_update(const std::vector<std::string>& words, Time now) {
  if (words.empty() || to_lower(words[0]) != "job") {
    return invalid_argument("update: expected \"job ID[,ID...] Key=Value...\" (only jobs can be updated)");
  }
  if (words.size() < 2) return invalid_argument("update job: no job id");
  FAIRWAY_TRY_ASSIGN(ids, parse_job_ids({words[1]}));
  wire::JobUpdate u;
  u.jobs = std::move(ids);
  bool any = false;
  for (std::size_t i = 2; i < words.size(); ++i) {
    const std::string& w = words[i];
    const auto eq = w.find('=');
    if (eq == std::string::npos || eq == 0) {
      return invalid_argument("update job: \"" + w + "\" is not Key=Value");
    }
    const std::string key = to_lower(w.substr(0, eq));
    const std::string value = w.substr(eq + 1);
    const auto bad = [&](const std::string& why) {
      return invalid_argument("update job: " + w + ": " + why);
    };
    if (key == "timelimit") {
      auto d = parse_walltime(value);
      if (!d) return bad(d.error().message);
      if (d->is_infinite() || *d <= Duration()) return bad("a time limit must be a positive walltime");
      u.time_limit = *d;
    } else if (key == "partition") {
      if (value.empty()) return bad("empty partition");
      u.partition = value;
    } else if (key == "qos") {
      if (value.empty()) return bad("empty QOS");
      u.qos = value;
    } else if (key == "account") {
      if (value.empty()) return bad("empty account");
      u.account = value;
    } else if (key == "jobname" || key == "name") {
      if (value.empty()) return bad("empty name");
      u.name = value;
    } else if (key == "comment") {
      u.comment = value;
    } else if (key == "nice") {
      std::int32_t n = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (value.empty() || ec != std::errc() || end != value.data() + value.size() || n < -2147483645 ||
          n > 2147483645) {
        return bad("expected a whole number");
      }
      u.nice = n;
    } else if (key == "starttime" || key == "begin") {
      auto t = parse_begin_time(value, now);
      if (!t) return bad(t.error().message);
      u.begin = *t;
    } else {
      return invalid_argument("update job: unknown key \"" + w.substr(0, eq) +
                              "\" (TimeLimit, Partition, QOS, Account, JobName, Comment, Nice, StartTime)");
    }
    any = true;
  }
  if (!any) return invalid_argument("update job: nothing to change (give Key=Value, e.g. TimeLimit=1:00:00)");
  return u;
}

int run_update(const std::vector<std::string>& words, Time now, bool json, const Transport& transport,
               const Output& io) {
  auto update = parse_job_update(words, now);
  if (!update) return report_error(io, update.error().message, kExitUsage);
  auto reply = ask<wire::JobControlReply>(*update, transport, io);
  if (!reply) return kExitFailure;
  return report_control_results("update", *reply, json, io);
}

}  // namespace fairway::cli
