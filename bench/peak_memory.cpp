#include "peak_memory.h"

#include <sys/resource.h>

namespace fairway::bench {

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux reports KiB
}

}  // namespace fairway::bench
