// A PreemptionHost over a map of records, for testing the preemption collaborators without
// a Scheduler: it records what they asked and changes the records as the scheduler would.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "coordinator/core/preemption_host.h"

namespace fairway::testing {

class FakePreemptionHost final : public PreemptionHost {
 public:
  std::map<std::uint64_t, JobRecord> jobs;
  std::vector<JobId> requeued;
  std::vector<std::pair<JobId, JobState>> finished;
  Status refuse = ok_status();  // what requeue and finish answer

  JobRecord& add_running(JobRecord r) {
    r.state = JobState::kRunning;
    return jobs[r.spec.id.value()] = std::move(r);
  }
  JobRecord* find(JobId id) override {
    auto it = jobs.find(id.value());
    return it == jobs.end() ? nullptr : &it->second;
  }
  Status requeue(JobId id, Time) override {
    if (!refuse) return refuse;
    requeued.push_back(id);
    JobRecord& j = jobs.at(id.value());
    ++j.requeue_count;
    j.allocation = {};
    j.state = JobState::kPending;
    j.preempting.reset();
    return ok_status();
  }
  Status finish(JobId id, JobState final_state, Time) override {
    if (!refuse) return refuse;
    finished.emplace_back(id, final_state);
    JobRecord& j = jobs.at(id.value());
    j.state = final_state;
    j.preempting.reset();
    return ok_status();
  }
  void start(JobRecord& j, Allocation alloc, Time now) override {
    j.state = JobState::kRunning;
    j.start_time = now;
    j.allocation = std::move(alloc);
  }
};

}  // namespace fairway::testing
