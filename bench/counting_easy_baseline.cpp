#include "counting_easy_baseline.h"

#include <algorithm>
#include <cassert>
#include <deque>
#include <functional>
#include <queue>
#include <set>
#include <utility>

namespace fairway::bench {

CountingEasyResult counting_easy(const sim::Workload& w, std::int64_t processors) {
  const auto& jobs = w.jobs;
  CountingEasyResult out;
  out.start.assign(jobs.size(), -1);
  using Event = std::pair<std::int64_t, std::size_t>;  // (end, job)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> ends;
  std::multiset<std::pair<std::int64_t, std::int64_t>> planned;  // (limit end, cores) running
  std::vector<std::multiset<std::pair<std::int64_t, std::int64_t>>::iterator> plan_of(jobs.size());
  std::deque<std::size_t> queue;
  std::int64_t free = processors;
  std::size_t next = 0;
  const auto cores = [&](std::size_t j) { return static_cast<std::int64_t>(jobs[j].spec.resources.cores); };
  const auto start = [&](std::size_t j, std::int64_t now) {
    out.start[j] = now;
    free -= cores(j);
    ends.emplace(now + jobs[j].runtime.count(), j);
    plan_of[j] = planned.emplace(now + jobs[j].spec.time_limit.count(), cores(j));
  };
  while (next < jobs.size() || !ends.empty()) {
    std::int64_t now = next < jobs.size() ? jobs[next].spec.submit_time.seconds() : ends.top().first;
    if (!ends.empty()) now = std::min(now, ends.top().first);
    while (!ends.empty() && ends.top().first == now) {
      const std::size_t j = ends.top().second;
      ends.pop();
      free += cores(j);
      planned.erase(plan_of[j]);
    }
    while (next < jobs.size() && jobs[next].spec.submit_time.seconds() == now) {
      if (cores(next) <= processors) queue.push_back(next);
      ++next;
    }
    while (!queue.empty() && cores(queue.front()) <= free) {
      start(queue.front(), now);
      queue.pop_front();
    }
    if (queue.empty()) continue;
    // The head's reservation: when enough processors are free by the limits.
    std::int64_t shadow = now, avail = free;
    for (auto it = planned.begin(); it != planned.end() && avail < cores(queue.front()); ++it) {
      shadow = std::max(now, it->first);
      avail += it->second;
    }
    std::int64_t extra = avail - cores(queue.front());
    for (auto it = std::next(queue.begin()); it != queue.end() && free > 0;) {
      const std::size_t j = *it;
      const bool ends_first = now + jobs[j].spec.time_limit.count() <= shadow;
      if (cores(j) <= free && (ends_first || cores(j) <= extra)) {
        if (!ends_first) extra -= cores(j);
        start(j, now);
        it = queue.erase(it);
      } else {
        ++it;
      }
    }
  }
  double waited = 0;
  std::size_t ran = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (out.start[j] < 0) continue;
    waited += static_cast<double>(out.start[j] - jobs[j].spec.submit_time.seconds());
    ++ran;
  }
  out.mean_wait_s = ran == 0 ? 0 : waited / static_cast<double>(ran);
  return out;
}

}  // namespace fairway::bench
