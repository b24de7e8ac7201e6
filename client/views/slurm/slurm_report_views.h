// sprio's, sshare's and squeue -s's tables as Slurm 22.05 prints them (checked against its
// output), from the coordinator's priority breakdowns, fair-share rows and job steps.
// Pure; thread-safe.
#pragma once

#include <string>

#include "shared/wire/messages.h"

namespace fairway::cli {

struct SprioLayout {
  bool long_format = false;  // -l: every factor, with USER, ASSOC, NICE and TRES
  bool user_column = false;  // -u: the USER column in the default layout
  bool header = true;
};

// One line per waiting job, highest priority first, ties by id. Fairway's terms go into
// Slurm's columns: age AGE, fairshare FAIRSHARE, size JOBSIZE, partition PARTITION, qos
// QOS, nice NICE, and every term Slurm has no column for (expansion factor, bypass, queue
// target, resources, node bins, overuse) into SITE, Slurm's column for a site's own
// factor. The default layout shows SITE and the columns whose term the profile weighs, as
// sprio shows those whose weight is not zero. Values are whole points, as sprio's.
std::string render_sprio(const wire::JobQueryReply& reply, const SprioLayout& layout);

struct SshareLayout {
  // sshare -a: every account shows, whether or not a user line of it came.
  bool every_account = false;
  // -A: the tree from these accounts down (no root line); empty: from the root.
  bool from_accounts = false;
  bool header = true;
  bool parsable = false;      // -P: fields separated by '|'
  bool trailing_bar = false;  // -p: and one after the last
};

// sshare's table: the root's line (usage 1.0 of itself), each account one space in, its
// users two, the user name right-justified. `reply` holds the users asked for (the
// coordinator keeps only the caller's without -a): an account shows with one of them.
std::string render_sshare(const wire::SharesReply& reply, const SshareLayout& layout);

// squeue -s: the running steps of running jobs (JobView.steps, and each batch script's
// own as ID.batch, after the job's numbered steps as Slurm lists them), by job id: STEPID
// NAME PARTITION USER TIME NODELIST.
std::string render_squeue_steps(const wire::JobQueryReply& reply, bool header);

// scontrol show step: each running step's Key=Value block (the batch script's first, as
// scontrol lists them), only `step` ("batch" or a number) of each job when not empty;
// empty when none. What Fairway does not know of a step (srun's host and pid, its
// network, reserved ports) reads as Slurm reads it unknown.
std::string render_scontrol_steps(const wire::JobQueryReply& reply, const std::string& step);

}  // namespace fairway::cli
