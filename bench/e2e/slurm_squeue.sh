#!/usr/bin/env bash
# slurm_squeue.sh [N]: Slurm's side of fairway_cluster_bench --slurm-bin, on the real Slurm
# of ../shared/slurm-anchor (SLURM_CONF set, e.g. the accounting cluster): sbatch --hold
# (mean of 50), then squeue over N held jobs (default 9,900: Slurm's MaxJobCount is 10,000
# with the finished ones counted), median of 5. Its jobs are cancelled at the end.
set -eu
n=${1:-9900}
: "${SLURM_CONF:?set SLURM_CONF to the anchor's slurm.conf}"
ms() { date +%s%N | awk '{printf "%d", $1 / 1000000}'; }
t0=$(ms)
for _ in $(seq 1 50); do sbatch --hold --parsable -o /dev/null --wrap true >/dev/null; done
echo "sbatch --hold --wrap true (mean of 50): $(( ($(ms) - t0) / 50 )) ms"
seq 51 "$n" | xargs -P 4 -n 50 sh -c 'for _ in "$@"; do sbatch --hold --parsable -o /dev/null --wrap true >/dev/null; done' _
echo "jobs in the queue: $(squeue -h -o %i | wc -l)"
for f in "" "-h -o %i"; do
  times=""
  for _ in 1 2 3 4 5; do
    t=$(ms); squeue $f >/dev/null; times="$times $(( $(ms) - t ))"
  done
  echo "squeue $f (median of 5): $(echo $times | tr ' ' '\n' | sort -n | sed -n 3p) ms"
done
scancel -u "$(id -un)" --state=PENDING
