// The `fairway` subcommands other than submit, as functions of their parsed options and a
// transport to the coordinator, so they can be tested without a socket. Not thread-safe
// beyond what the transport and streams allow.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "client/api/transport.h"
#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

// "12,13" -> ids; errors name the bad id.
Result<std::vector<JobId>> parse_job_ids(const std::vector<std::string>& words);
// Job ids as scancel takes them: "42" (a job, or a whole array), "42_7" (one task),
// "42_[1-3,7]" (some tasks); comma-separated in one word or several words.
struct JobRefs {
  std::vector<JobId> jobs;
  std::vector<JobId> task_arrays;  // with task_indices: one task each
  std::vector<std::int32_t> task_indices;
};
Result<JobRefs> parse_job_refs(const std::vector<std::string>& words);
// "PD,R", "pending,running", "H": Slurm short codes or state names, any case.
Result<std::vector<JobState>> parse_states(const std::string& list);

struct QueueOptions {
  std::string user, partition, states, jobs;
  // squeue -A, -n, -w: only jobs charged to one of these accounts, with one of these
  // names, holding one of these nodes (comma lists; -w takes host lists). Empty: any.
  std::string accounts, names, nodes;
  bool all = false;
  bool json = false;
  // squeue's layout options (queue_format.h): -o FORMAT, -S KEYS, -l, --start, --noheader.
  std::string format, sort;
  bool long_format = false;
  bool expand_arrays = false;  // -r: each waiting array task on its own line
  bool start = false;
  bool noheader = false;
  bool showq = false;  // Maui's showq layout (showq_view.h)
  // squeue's rules: without -t only jobs not yet ended are listed, even those named by -j;
  // one id alone that the coordinator does not know is an error ("Invalid job id").
  bool squeue_rules = false;
  // squeue -s: running jobs' running steps in squeue's step layout (slurm_report_views.h);
  // with scontrol_steps, scontrol show step's, of `step_id` (JOB or JOB.STEP) when set.
  bool steps = false;
  bool scontrol_steps = false;
  std::string step_id;
};
int run_queue(const QueueOptions& o, const Transport& transport, const Output& io);

// -t/-s STATES and -j IDS into the query; errors name the bad value.
Status add_state_and_id_filters(wire::JobQuery& q, const std::string& states, const std::string& jobs);

// Every page of a JobQuery's answer, as one reply; nullopt after printing the failure.
std::optional<wire::JobQueryReply> ask_all_pages(wire::JobQuery q, const Transport& transport,
                                                 const Output& io);
// The cluster's name ([cluster] name), as Slurm's JSON outputs carry it.
std::optional<std::string> ask_cluster_name(const Transport& transport, const Output& io);

// How `show job` prints a job: fairway's own layout, JSON, or scontrol's Key=Value lines.
enum class JobDetailLayout : std::uint8_t { kFairway, kJson, kScontrol };
int run_show_job(const std::string& id, JobDetailLayout layout, const Transport& transport, const Output& io);
// `scontrol`: scontrol show node's Key=Value layout and its "Node X not found".
int run_show_node(const std::string& name, bool json, bool scontrol, const Transport& transport,
                  const Output& io);
// `summarize`: one line per partition (sinfo -s) instead of one per node.
// `slurm_json`: --json in sinfo's shape (the sinfo front-end), not fairway's.
int run_nodes(const std::vector<std::string>& names, bool json, bool summarize, bool slurm_json,
              const Transport& transport, const Output& io);

// `fairway nodes -o FORMAT` (sinfo -o): sinfo's %-fields, one row per partition and node
// state, or per node and partition with `node_oriented` (sinfo -N); only `partitions`
// when given.
struct NodeLayoutOptions {
  std::string format;
  bool node_oriented = false;
  bool noheader = false;
  bool time_line = false;     // sinfo -l: the listing's time first, as ctime writes it
  bool list_reasons = false;  // sinfo -R: nodes by the reason they are down or drained
  bool summarize = false;     // sinfo -s: one row per partition
  std::vector<std::string> partitions;
};
int run_node_layout(const NodeLayoutOptions& o, const Transport& transport, const Output& io);

// scancel's filters: jobs of this user, in these states (codes or names), partition, with
// this name, charged to this account. Empty fields match everything.
struct JobFilter {
  std::string user, states, partition, name, account;
  bool empty() const {
    return user.empty() && states.empty() && partition.empty() && name.empty() && account.empty();
  }
};

// cancel / hold / release / requeue: prints each failure and exits 1 if any failed. With a
// filter, acts on the jobs it matches (among `ids` when some are given); none: exits 0.
// cancel --signal=SIG [-b]: tell running jobs SIG (to the batch script alone with -b)
// instead of ending them.
struct SignalRequest {
  std::int32_t signal = 0;
  bool batch_only = false;
};

// `json`: the results as control_json on stdout instead of one error line per refusal.
// `quiet_when_gone`: a job that does not exist or has already ended is no error (scancel's
// way: the job is gone, which is what was asked).
// `confirm_from` (scancel -i): each job is named ("Cancel job_id=N name=X partition=P
// [y/n]? ") and acted on only when the line read from it starts with y; a job that is not
// waiting or running is an error in scancel's words. Array task ids are refused with it.
int run_job_control(wire::JobAction action, const std::vector<std::string>& ids, const std::string& user,
                    const Transport& transport, const Output& io, const JobFilter& filter = {},
                    bool json = false, const std::optional<SignalRequest>& signal = std::nullopt,
                    bool quiet_when_gone = false, std::istream* confirm_from = nullptr);
// cancel, hold, release and requeue's options as both command lines fill them (scancel's
// among them); `signal` a name or number (empty: end the jobs, not signal them).
struct ControlOptions {
  std::vector<std::string> ids;
  JobFilter filter;
  std::string signal;
  bool batch = false;  // -b: with signal, to the batch script alone
  bool json = false;
  bool quiet_when_gone = false;
  bool confirm = false;  // -i: ask on stdin before each job
};
// Checks -s and -b (usage errors exit 2), then run_job_control for `user`.
int run_control(wire::JobAction action, const ControlOptions& o, const std::string& user,
                const Transport& transport, const Output& io);

// Prints each refused job ("VERB job N: why") or, with `json`, all results as JSON; exits
// 1 when any was refused.
int report_control_results(const std::string& verb, const wire::JobControlReply& reply, bool json,
                           const Output& io, bool quiet_when_gone = false);

// drain / resume (admins): prints each failure and exits 1 if any failed.
int run_node_control(wire::NodeAction action, const std::vector<std::string>& nodes,
                     const std::string& reason, const std::string& user, const Transport& transport,
                     const Output& io);

}  // namespace fairway::cli
