// `fairway history`: finished jobs read from the store, however long ago they ended (the
// daemon keeps views of only the latest in memory). Filters the SQL cannot apply (state,
// account, partition) are applied to each row's decoded request, page by page.
#include <algorithm>

#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/job_translation.h"
#include "coordinator/daemon/job_views.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

constexpr std::size_t kRowsPerRead = 512;

}  // namespace

void CoordinatorService::on_history_query(const std::string& peer, const wire::JobQuery& m,
                                          const Caller& caller, Time now) {
  wire::JobQueryReply r;
  r.now = now;
  std::string user = m.user;
  // [security] private_data: a user's history is their own jobs, as in `queue`.
  if (config_.security.private_data && !caller.admin) {
    if (!user.empty() && user != caller.user) {
      reply(Channel::kClients, peer, r);
      return;
    }
    user = caller.user;
  }
  const std::size_t limit = m.limit > 0 ? std::min<std::size_t>(m.limit, kJobQueryPage) : kJobQueryPage;
  JobId after = m.after;
  JobId last_wanted;
  if (!m.jobs.empty()) {
    // Only these ids: start just below the smallest, stop after the largest.
    const auto [lo, hi] = std::minmax_element(m.jobs.begin(), m.jobs.end());
    if (lo->value() > 1 && JobId(lo->value() - 1) > after) after = JobId(lo->value() - 1);
    last_wanted = *hi;
  }
  std::vector<JobId> arrays_named;  // arrays asked for by id: their tasks are listed
  bool exhausted = false;
  while (r.jobs.size() < limit && !exhausted) {
    auto rows = store_->load_finished(after, kRowsPerRead, user, m.ended_after, m.ended_before);
    if (!rows) {
      error_reply(Channel::kClients, peer, ErrorCode::kIo, "cannot read the job history: " + rows.error().message);
      return;
    }
    exhausted = rows->size() < kRowsPerRead;
    for (const StoredJob& row : *rows) {
      after = row.id;
      // Named by -j: the row itself, or (when it is an array's) its tasks after it.
      bool named = false;
      if (!m.jobs.empty()) {
        if (row.id > last_wanted) {
          exhausted = true;
          break;
        }
        named = std::find(m.jobs.begin(), m.jobs.end(), row.id) != m.jobs.end();
        if (!named && arrays_named.empty()) continue;
      }
      const bool state_ok = m.states.empty() || std::find(m.states.begin(), m.states.end(), row.state) != m.states.end();
      if (!state_ok && !named) continue;  // before decoding: the common filter stays cheap
      auto decoded = decode_stored_request(row.request);
      if (!decoded) continue;
      const wire::SubmitRequest* req = &*decoded;  // recovery refuses a store with such a row; none is written since
      if (!req->spec.array.empty()) {
        // An array's own row: its tasks are the jobs. Named by id, as `sacct -j A`, it
        // stands for its tasks, whose ids follow it (A + 1 + position).
        if (named) {
          arrays_named.push_back(row.id);
          last_wanted = std::max(last_wanted, JobId(row.id.value() + static_cast<std::uint64_t>(req->spec.array.count())));
        }
        continue;
      }
      if (!state_ok) continue;
      if (!m.jobs.empty() && !named &&
          std::find(arrays_named.begin(), arrays_named.end(), req->spec.array_job) == arrays_named.end()) {
        continue;
      }
      const RowJob job = from_row(row, *req);
      if (!m.account.empty() && job.record.spec.account != m.account) continue;
      if (!m.partition.empty() && job.record.spec.partition != m.partition) continue;
      r.jobs.push_back(job_view(job.record, job.tracking, *scheduler_, row.allocation));
      if (r.jobs.size() == limit) break;
    }
  }
  if (auto st = attach_steps(r.jobs); !st) {
    error_reply(Channel::kClients, peer, ErrorCode::kIo, "cannot read the job steps: " + st.error().message);
    return;
  }
  // A full page may have more behind it; the client asks again from its last id.
  r.more = r.jobs.size() == limit && !exhausted;
  r.total = r.jobs.size();
  reply(Channel::kClients, peer, r);
}

}  // namespace fairway::daemon
