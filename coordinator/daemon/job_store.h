// The coordinator's durable job store: jobs, node admin states and a key/value meta table
// in one SQLite file (WAL). Not thread-safe: owned and called by the event-loop thread.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "coordinator/daemon/job_store_schema.h"
#include "coordinator/daemon/sqlite_db.h"
#include "coordinator/daemon/stored_job.h"
#include "shared/base/ids.h"
#include "shared/base/result.h"
#include "shared/base/time.h"

namespace fairway::daemon {

// Durability contract (docs/architecture.md section 8): a change is durable once commit() returns ok,
// and only then may it be acknowledged. Writes made outside begin()/commit() each commit
// on their own (one fsync each), which is correct but slow.
//
// A failed write inside a transaction (e.g. a duplicate token) undoes only that write; the
// transaction stays open for the rest of the turn. If commit() fails, call rollback() and
// acknowledge nothing from that turn.
class JobStore {
 public:
  // The file inside the state directory.
  static constexpr const char* kFileName = "fairway.db";
  // The schema this code writes; open() refuses a file with a newer one.
  static constexpr std::int64_t kSchemaVersion = kJobStoreSchemaVersion;

  // Creates the directory if missing, opens/creates `<state_dir>/fairway.db` in WAL mode
  // (synchronous=FULL: an acknowledged job must survive power loss), checks/creates the
  // schema (a schema_version row; an unknown newer version is an error naming it).
  static Result<std::unique_ptr<JobStore>> open(const std::string& state_dir);
  // Rolls back a transaction still open: destroying the store is a crash, not a commit.
  ~JobStore();
  JobStore(const JobStore&) = delete;
  JobStore& operator=(const JobStore&) = delete;

  // One transaction per event-loop turn: begin(), any number of writes, commit().
  Status begin();
  Status commit();
  void rollback();
  // Fault injection seam for tests: the next commit() fails (as on a full disk) and leaves
  // the transaction for rollback().
  void fail_next_commit_for_test() { fail_next_commit_ = true; }
  // ... and the n-th store operation from now (1: the next) fails instead: a begin(), a
  // write (insert, update, step, node state, meta, purge) or a commit(), as an I/O error
  // would, leaving any open transaction for rollback(). Reads never fail this way.
  void fail_operation_for_test(int n) { fail_operation_in_ = n; }
  bool in_transaction() const { return in_transaction_; }

  // Ids are never reused, even after jobs are purged: a persistent counter. Ids handed out
  // by a transaction that is rolled back are skipped, never handed out again by this store.
  // `count` consecutive ids, the first returned: a job array takes its own and one per task.
  Result<JobId> allocate_job_id(std::uint64_t count = 1);
  // Gives back the id just allocated, for a submission refused before anything was stored
  // under it, so that refusals do not use up ids (users read gaps as lost jobs). Any other
  // id is ignored: only the newest one can be handed out again without reuse.
  void return_job_id(JobId id, std::uint64_t count = 1);
  // The next id is at least `first` ([coordinator] first_job_id); never lowered. Written
  // with the next commit.
  void raise_next_job_id(std::uint64_t first);

  // Error (kAlreadyExists) if the id or (user, client_token) exists; an empty token never
  // collides. Error (kInvalidArgument) for id 0, an empty user, a negative requeue count
  // or an allocation that cannot be encoded (see allocation_codec.h).
  Status insert_job(const StoredJob& job);
  // The job this user submitted with this token, if any; nullopt for an empty token.
  Result<std::optional<JobId>> find_by_token(const std::string& user, const std::string& token);
  // The opaque request bytes of one job: the daemon keeps them out of memory until launch.
  Result<std::string> load_request(JobId id) const;
  // Writes everything but id/user/token/request. Error (kNotFound) for an unknown id.
  Status update_job(const StoredJob& job);
  // Replaces a job's request bytes (`fairway update job` changed its spec): the only write
  // of a request after insert_job. Error (kNotFound) for an unknown id.
  Status update_request(JobId id, const std::string& request);
  // Every job, by ascending id. A corrupt row is an error naming the job id and column.
  Result<std::vector<StoredJob>> load_jobs() const;
  // The same rows one at a time, for a store too big to hold at once (recovery): an error
  // from `fn` stops the scan and is returned. No other store call may run inside `fn`.
  Status scan_jobs(const std::function<Status(StoredJob&&)>& fn) const;
  // How many jobs are in a terminal state.
  Result<std::int64_t> count_finished_jobs() const;
  // Finished jobs (an end time set) with ids above `after`, in id order, at most `limit`:
  // the accounting query. `user` empty: anyone's; the end time within [from, to) when set.
  Result<std::vector<StoredJob>> load_finished(JobId after, std::size_t limit, const std::string& user,
                                               std::optional<Time> from, std::optional<Time> to) const;
  // Drops at most `limit` terminal jobs whose end_time is before t (the earliest ended
  // first), with their steps; waiting, running and requeued jobs stay. Returns how many
  // went: `limit` means there may be more, for the next call. `purged`, when given, gets
  // the rows that went (in no particular order), for what must outlive them.
  Result<std::int64_t> purge_finished_before(Time t,
                                             std::int64_t limit = std::numeric_limits<std::int64_t>::max(),
                                             std::vector<StoredJob>* purged = nullptr);

  // Purged jobs' runs, for fair-share (job_store_usage.cpp). Error (kAlreadyExists) if the
  // job has one; (kInvalidArgument) for id 0, an empty account or user, an end before the
  // start, negative amounts or a GPU type with a comma.
  Status add_usage_run(const StoredUsageRun& run);
  // Every kept run, by end time.
  Result<std::vector<StoredUsageRun>> load_usage_runs() const;
  // Drops at most `limit` runs that ended before t, the earliest first; returns how many.
  Result<std::int64_t> purge_usage_runs_before(Time t, std::int64_t limit);

  // Job steps (job_store_steps.cpp), sacct's ID.N lines. Upserts by (job, step); error
  // (kInvalidArgument) for id 0, a negative step or count, or an empty name.
  Status put_step(const StoredStep& step);
  // The steps of jobs `first` to `last` (both included), by job and step number.
  Result<std::vector<StoredStep>> load_steps(JobId first, JobId last) const;
  // Steps not ended yet, by job and step: a restarted coordinator still waits for them.
  Result<std::vector<StoredStep>> load_open_steps() const;
  // For each job not ended that has steps: the number its next step takes (one past its
  // highest), by job.
  Result<std::vector<std::pair<JobId, std::int32_t>>> load_next_step_numbers() const;

  // Upserts by node name.
  Status set_node_admin_state(const NodeAdminState& s);
  // Every node's admin state, by node name.
  Result<std::vector<NodeAdminState>> load_node_admin_states() const;

  // Free-form daemon state (e.g. fair-share snapshots). The store's own keys
  // (schema_version, next_job_id) are refused by set_meta.
  Result<std::optional<std::string>> get_meta(const std::string& key) const;
  Status set_meta(const std::string& key, const std::string& value);
  // Every (key, value) whose key starts with `prefix`, by key.
  Result<std::vector<std::pair<std::string, std::string>>> load_meta_prefix(const std::string& prefix) const;

  const std::string& path() const { return db_->path(); }

 private:
  JobStore(std::unique_ptr<SqliteDb> db, std::uint64_t next_job_id);

  Status persist_job_id_counter();
  // The armed fail_operation_for_test(), when this operation is the one; else ok.
  Status injected_failure(std::string_view operation);
  // The steps whose job is gone (job_store_steps.cpp).
  Status purge_orphan_steps();

  std::unique_ptr<SqliteDb> db_;
  // Kept in memory so that an allocation costs one UPDATE, not a read and a write; it only
  // grows, so a rolled-back allocation can never be handed out twice.
  std::uint64_t next_job_id_;
  bool in_transaction_ = false;
  bool fail_next_commit_ = false;
  int fail_operation_in_ = 0;  // 0: off
  // Allocations inside a transaction write the counter once, at commit, not per job.
  bool job_id_counter_dirty_ = false;
};

}  // namespace fairway::daemon
