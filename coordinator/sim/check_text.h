// How fairway-sim --check's rules name what they found: jobs, times and runs in violation
// messages, the same words in every rule. Pure and stateless.
#pragma once

#include <cstdint>
#include <expected>
#include <string>

#include "coordinator/sim/schedule_record.h"
#include "shared/base/ids.h"
#include "shared/base/result.h"
#include "shared/base/time.h"

namespace fairway::sim::check_text {

inline std::string str(std::int64_t v) {
  return std::to_string(v);
}
inline std::string str(Time t) {
  return std::to_string(t.seconds());
}
inline std::string job(JobId id) {
  return "job " + std::to_string(id.value());
}
// A run's [start, end) in seconds.
inline std::string span(const ScheduleRecord& r) {
  return "[" + str(r.start) + ", " + str(r.end) + ")";
}
inline std::unexpected<Error> violation(std::string message) {
  return make_error(ErrorCode::kFailedPrecondition, std::move(message));
}

}  // namespace fairway::sim::check_text
