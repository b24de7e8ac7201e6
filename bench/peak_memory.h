// Peak resident memory of this process, for the memory figures the benchmarks report.
#pragma once

namespace fairway::bench {

double peak_rss_mib();

}  // namespace fairway::bench
