// How Slurm's commands show a Fairway job: states, reasons and exit codes that Slurm
// spells its own way, spelled so (checked against Slurm 22.05). Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/model/job_state.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

// Slurm has no held or blocked state: such a job is PENDING, a held one with reason
// JobHeldUser and priority 0 (what `scontrol hold` leaves), a blocked one with its limit's
// reason; a requeued one is PENDING again. A waiting job asks for at least one node. A
// cancelled or timed-out job's ExitCode is 0:0: Slurm gives the signal to its batch step
// (sacct: ID.batch CANCELLED 0:15), not to the job.
void to_slurm_view(wire::JobView& job);

// scontrol show job: as to_slurm_view, but an ended job's ExitCode is its batch script's
// status, as Slurm's scontrol shows it (a cancelled or timed-out script that ignored
// SIGTERM: 0:9), and its Reason says why it ended (TimeLimit, NonZeroExitCode).
void to_scontrol_view(wire::JobView& job);

// The line sacct prints for a job's batch script (ID.batch), from the job as the
// coordinator answered it (before to_slurm_view): named "batch", no partition, on the
// job's first node only (its cores there), the script's own state and exit status (a cancelled or timed-out
// script: CANCELLED, its signal). nullopt for a job that has not started or has no script (an allocation).
std::optional<wire::JobView> batch_step_view(const wire::JobView& job);

// A line sacct prints under its job's: its batch script's (id "batch") or a step's (id
// its number), as a job view of its own.
struct StepLine {
  std::string id;
  wire::JobView view;
};

// The job's lines under its own, in Slurm's order: its batch script's (batch_step_view),
// then its steps by number (JobView.steps): each named after its command, no partition,
// on the job's first nodes with the job's cores there (Slurm 22.05 gives a step every CPU
// of its job on its nodes), its own times, state and exit.
std::vector<StepLine> step_lines(const wire::JobView& job);

// What a step's line holds, as Slurm accounts a step: its CPUs and nodes (and GPUs) with
// mem=0 ("cpu=2,mem=0,node=1"); "" for a step on no node.
std::string step_tres(const wire::JobView& step);

// A numbered step's task layout, srun's default: "Block" with more tasks than nodes, else
// "Cyclic".
std::string step_distribution(const wire::JobView& step);

// Slurm's order of its base states (squeue -S t sorts by it): pending, running, suspended,
// completed, cancelled, failed, timeout, node_fail, preempted, boot_fail, deadline, oom.
int slurm_state_rank(JobState s);

// sacct's State: the state's name and, for a job cancelled by someone, " by UID".
std::string sacct_state_text(const wire::JobView& job);

// The uid and the name in the reason the coordinator records for a cancel ("cancelled by
// NAME (uid N)"); nullopt for any other reason.
std::optional<std::uint32_t> cancelled_by_uid(std::string_view reason);
std::optional<std::string> cancelled_by_name(std::string_view reason);

}  // namespace fairway::cli
