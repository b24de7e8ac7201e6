// The job store's hot path: how many submits and state changes per second one event-loop
// turn can make durable, with 1,000 writes per transaction (one fsync per turn). The
// store lives in a fresh directory under $TMPDIR (or /tmp): use a disk, not tmpfs. Real
// time, not CPU time, is the figure: waiting for fsync is part of making a job durable.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "coordinator/daemon/job_store.h"
#include "coordinator/daemon/sqlite_db.h"
#include "shared/wire/codec.h"

namespace fairway::bench {
namespace {

using daemon::JobStore;
using daemon::StoredJob;

constexpr int kWritesPerTurn = 1000;

// A fresh store per benchmark run, removed afterwards.
class BenchStore {
 public:
  BenchStore() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fairway-store-bench-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) std::abort();
    dir_ = tmpl;
    auto store = JobStore::open(dir_.string());
    if (!store) std::abort();
    store_ = std::move(*store);
  }
  ~BenchStore() {
    store_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  BenchStore(const BenchStore&) = delete;
  BenchStore& operator=(const BenchStore&) = delete;
  JobStore& operator*() { return *store_; }
  JobStore* operator->() { return store_.get(); }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<JobStore> store_;
};

// About the size of an encoded submit request: script path, resources, limits, env.
StoredJob submitted_job(JobId id) {
  StoredJob job;
  job.id = id;
  job.user = "user" + std::to_string(id.value() % 500);
  job.client_token = "cli-" + std::to_string(id.value()) + "-7f3a9c";
  job.request = std::string(240, 'r');
  job.submit_time = Time::from_seconds(1'700'000'000 + static_cast<std::int64_t>(id.value()));
  return job;
}

void check(bool ok, benchmark::State& state, const char* what) {
  if (!ok) state.SkipWithError(what);
}

void BM_JobStoreInsert(benchmark::State& state) {
  BenchStore store;
  const auto per_turn = static_cast<int>(state.range(0));
  for (auto _ : state) {
    check(store->begin().has_value(), state, "begin");
    for (int i = 0; i < per_turn; ++i) {
      auto id = store->allocate_job_id();
      check(id && store->insert_job(submitted_job(*id)), state, "insert");
    }
    check(store->commit().has_value(), state, "commit");
  }
  state.SetItemsProcessed(state.iterations() * per_turn);
}
BENCHMARK(BM_JobStoreInsert)->Arg(kWritesPerTurn)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_JobStoreUpdate(benchmark::State& state) {
  BenchStore store;
  constexpr std::uint64_t kJobs = 20'000;
  check(store->begin().has_value(), state, "begin");
  for (std::uint64_t i = 1; i <= kJobs; ++i) {
    check(store->insert_job(submitted_job(JobId(i))).has_value(), state, "prefill");
  }
  check(store->commit().has_value(), state, "commit");

  // Each turn starts the next 1,000 jobs on a whole 2 x 16-core node, cycling the table.
  std::uint64_t next = 1;
  for (auto _ : state) {
    check(store->begin().has_value(), state, "begin");
    for (int i = 0; i < kWritesPerTurn; ++i) {
      StoredJob job = submitted_job(JobId(next));
      job.state = JobState::kRunning;
      job.start_time = Time::from_seconds(1'700'100'000);
      job.allocation = {{"n" + std::to_string(next % 1000),
                         {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31},
                         {0, 1}}};
      check(store->update_job(job).has_value(), state, "update");
      next = next % kJobs + 1;
    }
    check(store->commit().has_value(), state, "commit");
  }
  state.SetItemsProcessed(state.iterations() * kWritesPerTurn);
}
BENCHMARK(BM_JobStoreUpdate)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_JobStoreLoad(benchmark::State& state) {
  BenchStore store;
  const auto jobs = static_cast<std::uint64_t>(state.range(0));
  check(store->begin().has_value(), state, "begin");
  for (std::uint64_t i = 1; i <= jobs; ++i) {
    check(store->insert_job(submitted_job(JobId(i))).has_value(), state, "prefill");
  }
  check(store->commit().has_value(), state, "commit");
  for (auto _ : state) {
    auto loaded = store->load_jobs();
    check(loaded && loaded->size() == jobs, state, "load");
    benchmark::DoNotOptimize(loaded);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(jobs));
}
BENCHMARK(BM_JobStoreLoad)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();

// `jobs` completed jobs, ids 1..jobs, each ended ten minutes after its submission.
void prefill_finished(JobStore& store, std::uint64_t jobs, benchmark::State& state) {
  check(store.begin().has_value(), state, "begin");
  for (std::uint64_t i = 1; i <= jobs; ++i) {
    StoredJob job = submitted_job(JobId(i));
    job.state = JobState::kCompleted;
    job.start_time = job.submit_time;
    job.end_time = job.submit_time + Duration::seconds(600);
    check(store.insert_job(job).has_value(), state, "prefill");
  }
  check(store.commit().has_value(), state, "commit");
}

// `fairway history`'s reads over a store of `jobs` finished jobs: one user's page (the
// user filter runs over the id order), and a one-hour window (the end-time index).
void BM_JobStoreHistory(benchmark::State& state) {
  BenchStore store;
  const auto jobs = static_cast<std::uint64_t>(state.range(0));
  const bool window = state.range(1) != 0;
  prefill_finished(*store, jobs, state);
  const Time mid = Time::from_seconds(1'700'000'000 + static_cast<std::int64_t>(jobs / 2));
  for (auto _ : state) {
    auto page = window ? store->load_finished(JobId(0), 5000, "", mid, mid + Duration::hours(1))
                       : store->load_finished(JobId(0), 5000, "user7", std::nullopt, std::nullopt);
    check(page && !page->empty(), state, "history");
    benchmark::DoNotOptimize(page);
  }
}
BENCHMARK(BM_JobStoreHistory)
    ->Args({1'000'000, 0})
    ->Args({1'000'000, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(5);

// keep_finished's purge over a store of `jobs` finished jobs: one batch (kPurgeBatch rows
// and their steps) per turn, the store emptied batch by batch. With `keep` (the second
// argument), as the coordinator runs it: the purged rows handed back and each job's run kept
// for fair-share (usage_runs) in the same transaction. (The daemon also decodes each row's
// request for its account, not measured here.)
void BM_JobStorePurgeBatch(benchmark::State& state) {
  BenchStore store;
  const auto jobs = static_cast<std::uint64_t>(state.range(0));
  const bool keep = state.range(1) != 0;
  constexpr std::int64_t kBatch = 2'000;  // daemon::kPurgeBatch
  prefill_finished(*store, jobs, state);
  std::int64_t purged_total = 0;
  std::vector<StoredJob> rows;
  for (auto _ : state) {
    rows.clear();
    check(store->begin().has_value(), state, "begin");
    auto purged = store->purge_finished_before(Time::never(), kBatch, keep ? &rows : nullptr);
    check(purged && *purged == kBatch, state, "purge");
    for (const StoredJob& j : rows) {
      const daemon::StoredUsageRun run{j.id, "chem", j.user, "", *j.start_time, *j.end_time, 16, 64'000, {}};
      check(store->add_usage_run(run).has_value(), state, "keep run");
    }
    check(store->commit().has_value(), state, "commit");
    purged_total += *purged;
  }
  state.SetItemsProcessed(purged_total);
}
BENCHMARK(BM_JobStorePurgeBatch)
    ->Args({1'000'000, 0})
    ->Args({1'000'000, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(20);

// Opening a schema 5 store of `jobs` jobs, whose requests are wire frames: the upgrade to
// schema 6 rewrites each as the store's own record, in the open's one transaction. Each
// request is a typical sbatch submission: a 500-byte script and 25 environment variables.
void BM_JobStoreMigrateRequests(benchmark::State& state) {
  const auto jobs = static_cast<std::uint64_t>(state.range(0));
  wire::SubmitRequest request;
  request.spec.name = "sweep";
  request.spec.user = "alice";
  request.spec.resources.cores = 16;
  request.program.script = "#!/bin/bash\n#SBATCH -n 16\n" + std::string(470, 'x');
  for (int v = 0; v < 25; ++v)
    request.program.env.emplace_back("VAR" + std::to_string(v), "/opt/site/value/" + std::to_string(v));
  request.program.working_dir = "/home/alice/project";
  const std::string frame = wire::encode(request);
  for (auto _ : state) {
    state.PauseTiming();
    std::string dir = (std::filesystem::temp_directory_path() / "fairway-migrate-bench-XXXXXX").string();
    if (mkdtemp(dir.data()) == nullptr) std::abort();
    {
      auto store = JobStore::open(dir);
      if (!store) std::abort();
      check((*store)->begin().has_value(), state, "begin");
      for (std::uint64_t i = 1; i <= jobs; ++i) {
        StoredJob job = submitted_job(JobId(i));
        job.request = frame;
        check((*store)->insert_job(job).has_value(), state, "prefill");
      }
      check((*store)->commit().has_value(), state, "commit");
    }
    {
      auto db = daemon::SqliteDb::open(dir + "/" + JobStore::kFileName);
      check(db && (*db)->exec("UPDATE meta SET value = '5' WHERE key = 'schema_version'", "age the store"),
            state, "age");
    }
    state.ResumeTiming();
    auto store = JobStore::open(dir);
    check(store.has_value(), state, "migrate");
    state.PauseTiming();
    store = std::unexpected(Error{});
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(jobs));
}
BENCHMARK(BM_JobStoreMigrateRequests)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
}  // namespace fairway::bench
