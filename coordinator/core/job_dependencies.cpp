#include "coordinator/core/job_dependencies.h"

namespace fairway {
namespace {

// Beyond this many ids past the dense table's end, an id goes to the map: a stray huge
// id must not allocate gigabytes.
constexpr std::uint64_t kDenseSlack = 1u << 20;

// One job's part in one clause.
DependencyStatus one_job(DependencyType type, JobId id, const LiveJobState& live, const EndedJobs& ended) {
  using S = DependencyStatus;
  EndedJobs::Outcome outcome = EndedJobs::Outcome::kUnknown;
  if (const auto state = live(id)) {
    if (!is_terminal(*state)) {
      const bool started = !is_waiting(*state);
      return type == DependencyType::kAfter && started ? S::kSatisfied : S::kWaiting;
    }
    outcome = *state == JobState::kCompleted ? EndedJobs::Outcome::kSucceeded : EndedJobs::Outcome::kFailed;
  } else {
    outcome = ended.outcome(id);
  }
  if (outcome == EndedJobs::Outcome::kUnknown) return S::kNeverSatisfied;
  const bool ok = outcome == EndedJobs::Outcome::kSucceeded;
  switch (type) {
    case DependencyType::kAfter:
    case DependencyType::kAfterAny:
      return S::kSatisfied;
    case DependencyType::kAfterOk:
      return ok ? S::kSatisfied : S::kNeverSatisfied;
    case DependencyType::kAfterNotOk:
      return ok ? S::kNeverSatisfied : S::kSatisfied;
    case DependencyType::kSingleton:
      return S::kSatisfied;
  }
  return S::kNeverSatisfied;
}

DependencyStatus clause_status(const DependencyClause& c, const LiveJobState& live, const EndedJobs& ended,
                               bool singleton_clear) {
  if (c.type == DependencyType::kSingleton) {
    return singleton_clear ? DependencyStatus::kSatisfied : DependencyStatus::kWaiting;
  }
  DependencyStatus worst = DependencyStatus::kSatisfied;
  for (JobId id : c.jobs) {
    const DependencyStatus s = one_job(c.type, id, live, ended);
    if (s == DependencyStatus::kNeverSatisfied) return s;
    if (s == DependencyStatus::kWaiting) worst = s;
  }
  return worst;
}

}  // namespace

void EndedJobs::record(JobId id, JobState final_state) {
  const std::uint8_t v =
      static_cast<std::uint8_t>(final_state == JobState::kCompleted ? Outcome::kSucceeded : Outcome::kFailed);
  const std::uint64_t i = id.value();
  if (i < dense_.size() + kDenseSlack) {
    if (i >= dense_.size()) dense_.resize(static_cast<std::size_t>(i) + 1 + dense_.size() / 2, 0);
    dense_[static_cast<std::size_t>(i)] = v;
  } else {
    sparse_[i] = v;
  }
}

EndedJobs::Outcome EndedJobs::outcome(JobId id) const {
  const std::uint64_t i = id.value();
  if (i < dense_.size()) return static_cast<Outcome>(dense_[static_cast<std::size_t>(i)]);
  auto it = sparse_.find(i);
  return it == sparse_.end() ? Outcome::kUnknown : static_cast<Outcome>(it->second);
}

DependencyStatus evaluate_dependencies(const JobSpec& spec, const LiveJobState& live, const EndedJobs& ended,
                                       bool singleton_clear) {
  if (spec.dependencies.empty()) return DependencyStatus::kSatisfied;
  if (spec.dependency_any) {
    bool waiting = false;
    for (const DependencyClause& c : spec.dependencies) {
      const DependencyStatus s = clause_status(c, live, ended, singleton_clear);
      if (s == DependencyStatus::kSatisfied) return s;
      if (s == DependencyStatus::kWaiting) waiting = true;
    }
    return waiting ? DependencyStatus::kWaiting : DependencyStatus::kNeverSatisfied;
  }
  DependencyStatus worst = DependencyStatus::kSatisfied;
  for (const DependencyClause& c : spec.dependencies) {
    const DependencyStatus s = clause_status(c, live, ended, singleton_clear);
    if (s == DependencyStatus::kNeverSatisfied) return s;
    if (s == DependencyStatus::kWaiting) worst = s;
  }
  return worst;
}

std::optional<JobId> unknown_dependency(const JobSpec& spec, const LiveJobState& live,
                                        const EndedJobs& ended) {
  for (const DependencyClause& c : spec.dependencies) {
    for (JobId id : c.jobs) {
      if (id == spec.id) return id;  // a job cannot wait for itself
      if (!live(id) && ended.outcome(id) == EndedJobs::Outcome::kUnknown) return id;
    }
  }
  return std::nullopt;
}

bool has_singleton(const JobSpec& spec) {
  for (const DependencyClause& c : spec.dependencies) {
    if (c.type == DependencyType::kSingleton) return true;
  }
  return false;
}

}  // namespace fairway
