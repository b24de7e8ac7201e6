// How a job moves between the core's record and its row in the job store: the one pair of
// translators (to_row, from_row) that persistence, recovery and the history all use. Pure.
#pragma once

#include <optional>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_record.h"
#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/stored_job.h"
#include "shared/model/allocation.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

// The columns the store updates for a job (job_row.h): its state (a blocked job is stored
// waiting), times, allocation by node name, requeue count, reason and outcome. The user is
// the spec's; the client token and the request are written once, at submission.
StoredJob to_row(const JobRecord& rec, const ClusterState& cluster);

// A row read back with its decoded request: the core's record of the job and the daemon's
// tracking of it (its program's paths).
struct RowJob {
  JobRecord record;
  JobTracking tracking;
};
// The record has the request's spec (with the row's id and submit time, held when the row
// says so), the row's state, times, requeue count, reason and outcome. Its allocation stays
// empty: the row names its nodes, which the cluster may not know (gone since, or not
// registered yet after a restart): see allocation_on.
RowJob from_row(const StoredJob& row, const wire::SubmitRequest& request);

// A row's allocation on `cluster`'s nodes; unset while one of them is not known there.
std::optional<Allocation> allocation_on(const std::vector<StoredNodeAllocation>& nodes,
                                        const ClusterState& cluster);

}  // namespace fairway::daemon
