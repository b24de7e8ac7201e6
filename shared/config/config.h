// The validated, typed configuration of a cluster: nodes, partitions, QOS, accounts and
// the scheduling policy. Parsing is pure (text in, Config or Error out); see docs/config.md.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/base/calendar_period.h"
#include "shared/base/result.h"
#include "shared/base/time.h"
#include "shared/config/placement_config.h"
#include "shared/model/topology.h"

namespace fairway {

enum class BackfillMode { kNone, kEasy, kConservative };

std::string_view to_string(BackfillMode m);

// What backfill plans a job's run with (Tsafrir, Etsion and Feitelson, IEEE TPDS 2007).
// kNone: its time limit. kUserLast2: the mean of its user's last two runs that ended on
// their own, capped by the limit (the limit until the user has two); a running job that
// outlives its prediction is planned to the next step of a fixed series, then the limit.
// Only the plan changes: the kill still follows the limit.
enum class RuntimePrediction { kNone, kUserLast2 };
std::string_view to_string(RuntimePrediction p);

// The order in which jobs that cannot hold a reservation are tried for backfill.
// kPriority: the queue's. kShortestFirst: shortest planned run first (with predictions,
// "EASY++"); the jobs that hold reservations keep the queue's order.
enum class BackfillOrder { kPriority, kShortestFirst };
std::string_view to_string(BackfillOrder o);

struct SchedulerConfig {
  BackfillMode backfill = BackfillMode::kEasy;
  // How many waiting jobs hold a reservation. Unset: the mode's own depth
  // (none: 0, easy: 1, conservative: every job).
  std::optional<std::int32_t> reservation_depth;
  // Only jobs whose priority has reached this get a reservation (Sigma2: 20000); below it
  // the backfiller may start other jobs ahead of them. Unset: no threshold.
  std::optional<double> reservation_min_priority;
  // A starvation guard (selective reservation): a job that has waited this long since it
  // became eligible holds a reservation whatever the depth and threshold, so no later job
  // can pass it for ever. Unset: none.
  std::optional<Duration> reserve_after_wait;
  // How many such starving jobs per partition hold one at a time (the first in priority
  // order): one keeps the guard cheap; every one is conservative backfill for old jobs.
  std::int32_t reserve_after_wait_jobs = 1;
  // Slurm's two loops (Palmetto, seed 004): a main loop in priority order starts what fits
  // and skips a job when a higher-priority job waits for overlapping resources; then the
  // backfill loop above runs over what is left.
  bool main_loop = false;
  // Slurm's bf_max_job_user / bf_max_job_part: how many jobs of one user, or of one
  // partition, the backfill loop looks at in a pass. Unset: no cap.
  std::optional<std::int32_t> backfill_max_jobs_per_user;
  std::optional<std::int32_t> backfill_max_jobs_per_partition;
  // Slurm's bf_max_job_array_resv: how many waiting tasks of one job array a pass plans
  // beyond those that could start at once. Later tasks wait unplanned (and so hold no
  // reservation) until those go; an array of 100,000 tasks costs a pass no more than this.
  std::int32_t array_task_reservations = 20;
  RuntimePrediction runtime_prediction = RuntimePrediction::kNone;
  BackfillOrder backfill_order = BackfillOrder::kPriority;
};

// Where a job's waiting time (age, expansion factor, target queue time) counts from.
// kEligible: submission or release from hold, as in Slurm. kIdle: entry into the idle
// (not blocked) part of the queue, as in Maui; a job blocked by a limit does not age.
enum class AgeFrom { kEligible, kIdle };

struct PriorityWeights {
  double age_per_minute = 1.0;              // points for each minute waited
  Duration age_cap = Duration::infinite();  // waiting beyond this earns nothing more
  double fairshare = 0.0;                   // x fair-share factor in [0, 1]
  double size = 0.0;                        // x (job cores / cluster cores)
  double partition = 1.0;                   // x the partition's priority
  double qos = 1.0;                         // x the QOS's priority
  // Maui factors (seed 002). x (wait + time limit) / time limit.
  double expansion_factor = 0.0;
  double bypass = 0.0;  // x times a lower-priority job started while this one waited
  // Maui's "resources requested": points per core and per GPU the job asks for (an
  // absolute count, where `size` is a fraction of the partition).
  double resources_per_core = 0.0;
  double resources_per_gpu = 0.0;
  // x (e^(4 w / T) - 1) / (e^4 - 1), w = wait capped at 2T, T = queue_target_time:
  // 0 at no wait, 1 at the target, growing exponentially (about 55 at 2T).
  double queue_target = 0.0;
  Duration queue_target_time = Duration::infinite();  // infinite: the factor is 0
  AgeFrom age_from = AgeFrom::kEligible;
};

// Titan's node-count bins (seed 000): a job's node count places it in a bin that adds an
// aging boost, caps its walltime and may cap how many of a user's jobs in it run at once.
struct NodeBinConfig {
  std::string name;
  std::int32_t min_nodes = 1;
  std::optional<std::int32_t> max_nodes;  // unset: no upper bound
  Duration aging_boost;                   // apparent extra waiting, counted like age
  Duration max_time = Duration::infinite();
  std::optional<std::int32_t> max_running_jobs_per_user;
};

// Titan's allocation overuse policy (seed 000): from `min_percent` of its allocation used,
// an account's jobs look `priority_penalty` younger and it may run at most
// `max_running_jobs` at once. The highest tier reached applies.
struct OveruseTierConfig {
  double min_percent = 100;
  Duration priority_penalty;
  std::optional<std::int32_t> max_running_jobs;
};

// Titan's fair-share (seed 000): minutes of apparent waiting added for every percent a
// user or project is under its share of recent usage, and taken away for every percent
// over. The minutes count like waited minutes (x priority.age_per_minute).
struct TargetShareConfig {
  double user_target_percent = 0;
  double user_minutes_per_percent = 0;
  double account_target_percent = 0;
  double account_minutes_per_percent = 0;
};

// How the fair-share factor in [0, 1] is derived from usage and shares.
// kClassic: 2^(-usage share / normalised shares). kFairTree: Slurm's Fair Tree, accounts
// then users ranked by level fair-share (shares / usage), factor = rank / users.
enum class FairShareMode { kClassic, kFairTree };

struct FairShareConfig {
  Duration half_life = Duration::days(14);  // usage decays by half over this span
  // Set: usage is exactly what ran within the last `window` (1-hour buckets), and
  // half_life is unused.
  std::optional<Duration> window;
  // With a window: false, usage inside it counts in full; true, each unit counts
  // 1 - age / window, fading to nothing at the window's end (Kebnekaise: "decays gradually
  // over 50 days, meaning that jobs older than 50 days does not count").
  bool window_fades = false;
  FairShareMode mode = FairShareMode::kClassic;
  // Set: the fair-share priority term is Titan-style minutes instead of the classic
  // weight x 2^(-usage/shares).
  std::optional<TargetShareConfig> target_share;
};

struct BillingConfig {
  double cpu = 1.0;                   // billing units per core-second
  std::map<std::string, double> gpu;  // units per GPU-second by GPU type; absent types: 0
  // Units per GiB-second of memory held (Slurm's TRESBillingWeights "Mem=...G"); 0: memory
  // is not billed. Added to the cores' and GPUs' units.
  double memory_per_gb = 0.0;
  // False: a job holding GPUs is billed for its GPUs only, the cores that come with them
  // are part of the card's price (Kebnekaise: "accounted for 2 GPU-hours/hour if you ask
  // for 1 V100").
  bool gpu_jobs_bill_cores = true;
  // When [[accounts]] allocations renew: the usage allocation overuse compares with an
  // allocation counts from the start of the current period (UTC). kNone: all time.
  CalendarPeriod allocation_period = CalendarPeriod::kNone;
};

// What preemption does to a victim: nothing (not preemptable), back to the queue with the
// same id (its own --no-requeue turns this into cancel), or ended as preempted.
enum class PreemptMode { kOff, kRequeue, kCancel };

// Who may submit into a partition or use a QOS (Slurm's AllowAccounts, DenyAccounts,
// AllowGroups, AllowQos, DenyQos). Empty lists impose nothing. An allow list and its deny
// list are mutually exclusive (the parser refuses both). Checked at submission and when a
// waiting job moves (update), in the daemon and the simulator alike (core/access_rules.h).
struct AccessRules {
  std::vector<std::string> allow_accounts;  // only these accounts
  std::vector<std::string> deny_accounts;   // every account but these
  std::vector<std::string> allow_groups;    // only users in one of these Unix groups (not root)
  std::vector<std::string> allow_qos;       // partitions only: only jobs of these QOS
  std::vector<std::string> deny_qos;        // partitions only: every QOS but these
};

struct PartitionConfig {
  std::string name;
  AccessRules access;  // owner partitions list their owners' accounts
  // Node names, hostlist expanded. `nodes` absent or "ALL" in the file: every configured
  // node. Empty only when the config declares no nodes at all; the partition then spans
  // whatever nodes the daemon or simulator supplies.
  std::vector<std::string> nodes;
  bool is_default = false;
  Duration max_time = Duration::infinite();
  // For jobs that state no time limit; never above max_time (parse_config clamps the default).
  Duration default_time = Duration::hours(1);
  double priority = 0.0;
  std::string default_qos;  // QOS of jobs that name none; empty: no QOS
  // Kebnekaise: up to one node's cores a job gets exactly those cores; above, whole nodes,
  // accounted as whole nodes.
  bool whole_nodes_above_node_size = false;
  // Jobs one user may have in this partition in any state (Titan debug: 1); beyond it a
  // submission is refused. Unset: unlimited.
  std::optional<std::int32_t> max_jobs_per_user;
  PlacementConfig placement;  // allocation unit, GPU-socket fencing, islands
  // Palmetto's interact: a time limit over max_time is lowered to max_time instead of
  // refused.
  bool clamp_time_limit = false;
  // Interactive jobs (srun, salloc) that name no partition go here instead of the default.
  bool default_for_interactive = false;
  // Titan's killable queue (seed 000): its jobs may start although they cannot finish
  // before a maintenance reservation on their nodes, and are killed and requeued at its
  // start. `killable_cutoff` before a maintenance none of its jobs start on those nodes.
  bool killable = false;
  Duration killable_cutoff;
  // Owner partitions (Palmetto, seed 004; Slurm's PriorityTier and PreemptMode): a waiting
  // job of a higher tier may stop running jobs of a lower tier whose partition allows it.
  // Jobs of higher tiers are also considered first in every pass.
  std::int32_t priority_tier = 0;
  PreemptMode preempt = PreemptMode::kOff;  // what happens to this partition's jobs as victims
  Duration preempt_exempt_time;             // a job that has run less than this is not a victim
  Duration preempt_grace;                   // SIGTERM, this long, then SIGKILL of the process group
  // Slurm's DefMemPerCPU: the memory limit per allocated core, in MiB, of a job that asks
  // for none (--mem, --mem-per-cpu); enforced by its cgroup. 0: no limit.
  std::int64_t default_mem_per_cpu_mb = 0;
};

// A [[reservations]] entry: nodes taken from everyone during [start, start + duration).
// A maintenance (flags = ["maintenance"]) takes them from all jobs; a project reservation
// (Titan, seed 000: `account`) keeps them for the jobs its account submits into it with
// --reservation, charges that account cores x hours whether used or not, and is cancelled
// when under `cancel_below_use` of its cores are in use for `cancel_after`.
struct ReservationConfig {
  std::string name;
  Time start;
  Duration duration;
  bool all_nodes = false;          // nodes = "ALL": every node, also those that register later
  std::vector<std::string> nodes;  // hostlist expanded; empty when all_nodes
  bool maintenance = false;        // flags = ["maintenance"]
  std::string account;             // a project reservation's account (charged); else empty
  std::vector<std::string> users;  // if set, only these users of the account may use it
  double cancel_below_use = 0.0;   // fraction of its cores; 0: never cancelled for low use
  Duration cancel_after = Duration::minutes(30);
  bool project() const { return !account.empty(); }
  Time end() const { return start + duration; }
};

struct QosConfig {
  std::string name;
  double priority = 0.0;
  Duration max_time = Duration::infinite();
  // Ceiling on a job's total priority (Sigma2's optimist jobs stop at 10080, so they
  // never reach the reservation threshold). Unset: no ceiling.
  std::optional<double> max_priority;
  // Maui's targeted queue time per QOS (seed 002); unset: priority.queue_target_time.
  std::optional<Duration> queue_target_time;
  // allow_accounts / deny_accounts only (Slurm keeps this in the associations' QOS lists).
  AccessRules access;
};

struct AccountConfig {
  std::string name;
  double shares = 1.0;
  std::vector<std::string> users;  // users with their own share inside the account
  // Maui MAXPS for this account (HPC2N: SNAC projects get allocation/5 and 3x that).
  std::optional<double> maxps_soft;
  std::optional<double> maxps_hard;
  // The account's allocation in billing-unit hours (core-hours when billing.cpu = 1),
  // against which [[allocation_overuse]] tiers compare its total usage. Unset: no tiers.
  std::optional<double> allocation;
};

enum class LimitScope { kUser, kAccount };

// Policy limits on how many jobs a user or account may have in play (seeds 000, 002, 004).
// Unset means unlimited. A job over an eligibility limit is blocked, with the limit named
// as its reason, until it fits again; a submission over max_submitted_jobs_per_user is
// refused outright.
// Which blocked job takes an idle slot that opens under the eligible-job caps.
// kPriority: the highest-priority waiting job (Slurm-like; idle slots are recomputed each
// pass). kNewest: jobs already idle keep their slots and the newest blocked job moves up,
// as seed 002 words it ("the newest of the 'blocked' jobs will be upgraded to 'idle'").
enum class BlockedPromotion { kPriority, kNewest };

struct LimitsConfig {
  std::optional<std::int32_t> max_eligible_jobs_per_user;  // idle (eligible) jobs
  std::optional<std::int32_t> max_eligible_jobs_per_account;
  std::optional<std::int32_t> max_active_jobs_per_user;     // running + eligible
  std::optional<std::int32_t> max_submitted_jobs_per_user;  // pending + running
  // Slurm's MaxArraySize: array task indices run from 0 to this - 1.
  std::int32_t max_array_size = 100001;
  // Maui MAXPS: processor-seconds = remaining walltime x cores over the scope's running
  // jobs, plus the candidate's time limit x cores. Above soft, a job starts only when no
  // job in the queue is within its soft limit; above hard, never.
  std::optional<double> maxps_soft;
  std::optional<double> maxps_hard;
  LimitScope maxps_scope = LimitScope::kUser;
  BlockedPromotion promote_blocked = BlockedPromotion::kPriority;
};

// Where the daemons listen and keep state, and how they watch each other ([coordinator]).
struct CoordinatorConfig {
  std::string listen_agents = "tcp://127.0.0.1:6817";
  std::string listen_clients = "ipc:///run/fairway/coordinator.sock";
  std::string state_dir = "/var/lib/fairway";
  Duration heartbeat_timeout = Duration::seconds(30);  // a silent node goes down after this
  Duration pass_interval = Duration::seconds(5);       // a pass runs at least this often
  std::int32_t submit_burst = 1000;  // per-user token bucket (docs/architecture.md section 8)
  double submit_refill_per_s = 2;
  // Job mail (sbatch --mail-type) goes through this program as `PROG -t -oi`, message on
  // stdin (sendmail's interface; Debian's exim4 and postfix provide it). Empty: no mail.
  std::string mail_program = "/usr/sbin/sendmail";
  // HOST:PORT of a Prometheus text endpoint (GET /metrics). Empty: none. Anyone who reaches
  // it reads cluster-wide counts (no job or user names beyond accounts), so bind it where
  // only the monitoring host can.
  std::string metrics_listen;
  // Finished jobs are dropped from the store this long after they ended (checked hourly);
  // infinite: kept for ever (the history stays as long as the disk allows).
  Duration keep_finished = Duration::infinite();
  // The lowest id a new job gets (Slurm's FirstJobId): a site moving from Slurm starts
  // above Slurm's last id so that old and new jobs never share an id in its records. It
  // raises the store's counter, never lowers it: ids are not reused.
  std::int64_t first_job_id = 1;
};

// How agents run jobs ([agent]); the command line may override the paths.
struct AgentConfig {
  std::string spool_dir = "/var/spool/fairway";
  Duration heartbeat_interval = Duration::seconds(5);
  Duration kill_grace = Duration::seconds(30);  // TERM, then KILL after this
  bool allow_root_jobs = false;                 // uid 0 jobs are refused unless set
  // An agent that hears nothing from its coordinator for this long stops its jobs
  // (self-fencing), and the coordinator starts them elsewhere only after this plus
  // kill_grace has surely passed on the agent: a job never runs twice at once.
  Duration coordinator_lease = Duration::seconds(60);
  // Per-job cgroups: "auto" (v2 when usable, else v1, else affinity only), "v2", "v1"
  // (that version or refuse to start), "off".
  std::string cgroups = "auto";
  // Refuse to start when jobs could only be bound by affinity (no usable cgroups).
  bool require_enforcement = false;
  // Where the agent keeps its jobs' cgroups under each hierarchy; empty: "fairway/<node>".
  std::string cgroup_subtree;
  // pids.max of each job's cgroup (processes and threads at once; a fork bomb stops
  // there); 0: no limit.
  std::int64_t max_pids_per_job = 0;
  // Memory kept for the OS and the agent (Slurm's MemSpecLimit): the node offers its
  // NUMA memory minus this to jobs.
  std::int64_t reserved_memory_mb = 0;
};

// How agents and the coordinator prove themselves to each other.
enum class AgentAuth {
  kCurve,  // ZeroMQ CURVE: the coordinator admits listed agent keys, agents pin its key
  kNone,   // anyone who reaches the agent endpoint is believed: a laptop demo only
};

// Who may do what, and how callers prove who they are ([security]; docs/security.md).
struct SecurityConfig {
  // Members of this Unix group act on every job and manage nodes, as root does. Empty: root only.
  std::string admin_group;
  // True: users see only their own jobs in queries (Slurm's PrivateData=jobs); admins see all.
  bool private_data = false;
  // munged's socket for checking clients' MUNGE credentials; empty: libmunge's default.
  std::string munge_socket;
  AgentAuth agent_auth = AgentAuth::kCurve;
  // Coordinator: its CURVE secret key, and a directory of NODE.pub files (the file name is
  // the node the key may speak for).
  std::string coordinator_secret_key = "/etc/fairway/keys/coordinator.key";
  std::string agent_keys_dir = "/etc/fairway/keys/agents";
  // Agents: the coordinator's public key, and this node's secret key.
  std::string coordinator_public_key = "/etc/fairway/keys/coordinator.pub";
  std::string agent_secret_key = "/etc/fairway/keys/agent.key";
};

struct Config {
  std::string cluster_name = "fairway";
  CoordinatorConfig coordinator;
  AgentConfig agent;
  SecurityConfig security;
  std::vector<NodeTopology> nodes;  // expanded, one per node, names unique
  // Never empty after parse_config, and exactly one is_default: without [[partitions]]
  // one default "batch" over every node; with partitions but no `default = true`, the first.
  std::vector<PartitionConfig> partitions;
  std::vector<QosConfig> qos;
  std::vector<AccountConfig> accounts;
  SchedulerConfig scheduler;
  PriorityWeights priority;
  FairShareConfig fairshare;
  BillingConfig billing;
  LimitsConfig limits;
  std::vector<NodeBinConfig> node_bins;               // disjoint, any order
  std::vector<OveruseTierConfig> allocation_overuse;  // min_percent ascending
  std::vector<ReservationConfig> reservations;        // [[reservations]], names unique

  // The partition flagged is_default, else the first one (hand-built configs), else nullptr.
  const PartitionConfig* default_partition() const;
};

// Parses and validates TOML text. `source` names the file in error messages, which
// always name the key and the bad value: "cluster.toml: partitions[1].max_time: ...".
Result<Config> parse_config(std::string_view toml_text, std::string_view source);

}  // namespace fairway
