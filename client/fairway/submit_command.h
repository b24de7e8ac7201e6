// `fairway submit`: reads the script, builds the request and sends it, retrying once with
// the same client token when the coordinator does not answer. Reads files and the process
// environment; not thread-safe (the environment).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>

#include "client/api/job_request.h"
#include "client/api/submit_options.h"
#include "client/fairway/commands.h"

namespace fairway::cli {

// The current directory, the whole environment and a fresh
// 128-bit client token read from /dev/urandom.
Result<SubmitContext> current_submit_context();

// 32 lowercase hex digits from /dev/urandom.
Result<std::string> random_client_token();

// --dependency=afterok:12_3: each array task named gets its own job id, which only the
// coordinator knows (the array and its tasks as the caller may see them); added to its
// clause. Error naming the task when the array has no such task.
Status resolve_task_dependencies(BuiltSubmission& built, const Transport& transport);

// Errors in the options or script are usage errors (exit 2); a refusal by or no answer from
// the coordinator exits 1. Prints "Submitted batch job N", or "N" with --parsable.
int run_submit(const SubmitCommand& cmd, const SubmitContext& ctx, const Transport& transport,
               const Output& io);

// Polls the job (backing off from `first_pause` to `longest_pause`) until `done` holds for
// it: its view; an error when it is no longer known, after 30 polls the coordinator does
// not answer, or once `interrupted` (may be null) is set.
Result<wire::JobView> poll_job(JobId job, const Transport& transport,
                               const std::function<bool(const wire::JobView&)>& done,
                               std::chrono::milliseconds first_pause, std::chrono::milliseconds longest_pause,
                               const std::atomic<bool>* interrupted = nullptr);

// As poll_job, with the query's every view (expand_arrays: an array's waiting tasks each
// under its own id) until `done` holds for them.
Result<std::vector<wire::JobView>> poll_jobs(
    JobId job, bool expand_arrays, const Transport& transport,
    const std::function<bool(const std::vector<wire::JobView>&)>& done, std::chrono::milliseconds first_pause,
    std::chrono::milliseconds longest_pause, const std::atomic<bool>* interrupted = nullptr);

// --wait with --array: until every task of the array ended; 0 when all completed, else
// the highest exit code of a failed task (1 when none has one), naming the first few.
int wait_for_array(JobId array, const Transport& transport, const Output& io,
                   std::chrono::milliseconds first_pause = std::chrono::milliseconds(100),
                   std::chrono::milliseconds longest_pause = std::chrono::seconds(2));

// -W/--wait: polls the job (backing off from `first_pause` to `longest_pause`) until it
// ends; 0 when it completed, its exit code when it failed with one, else 1 with a line on
// stderr naming how it ended.
int wait_for_job(JobId job, const Transport& transport, const Output& io,
                 std::chrono::milliseconds first_pause = std::chrono::milliseconds(100),
                 std::chrono::milliseconds longest_pause = std::chrono::seconds(2));

}  // namespace fairway::cli
