// System-generated runtime predictions for backfill (Tsafrir, Etsion and Feitelson, IEEE
// TPDS 2007): a job is planned to run as long as its user's last two runs, not its limit.
// Pure data: runs are told to it; it never reads a clock.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "shared/base/time.h"

namespace fairway {

class RuntimePredictor {
 public:
  // A run of `user`'s that ended on its own (completed, failed or reached its limit) at
  // `ended`. Runs may be told in any order (a restart reads them by id): the two that
  // ended last are kept.
  void record(const std::string& user, Duration runtime, Time ended);

  // The mean of the user's last two runs, capped by `limit` and at least a second; the
  // limit while the user has fewer than two.
  Duration predict(const std::string& user, Duration limit) const;

  // A running job has outlived its prediction: plan it to the first step of a fixed
  // series (1, 5, 15, 30 minutes, 1, 2, 5, 10, 20, 50, 100 hours) beyond `elapsed`,
  // never past `limit`; past the last step, the limit.
  static Duration extend(Duration elapsed, Duration limit);

  std::size_t users() const { return last_.size(); }

 private:
  struct Run {
    std::int64_t seconds = 0;
    Time ended;
  };
  struct LastTwo {
    std::array<Run, 2> runs{};  // [0] the latest
    std::int32_t count = 0;     // up to 2
  };
  std::unordered_map<std::string, LastTwo> last_;
};

}  // namespace fairway
