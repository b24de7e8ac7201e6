#!/usr/bin/env bash
# slurm_squeue.sh [N]: Slurm's side of fairway_cluster_bench --slurm-bin, on the real Slurm
# of ../shared/slurm-anchor (SLURM_CONF set, e.g. the accounting cluster): sbatch --hold
# (mean of 50), then squeue over N held jobs (default 9,900: Slurm's MaxJobCount is 10,000
# with the finished ones counted), median of 5. Its jobs are cancelled at the end.
set -eu
n=${1:-9900}
: "${SLURM_CONF:?set SLURM_CONF to the slurm.conf of the anchor}"
ms() { date +%s%N | awk '{printf "%d", $1 / 1000000}'; }
median_ms() {  # COMMAND...: median wall time of 5 runs
  local all=""
  for _ in 1 2 3 4 5; do
    local t0 t1
    t0=$(ms); "$@" >/dev/null; t1=$(ms)
    all="$all $((t1 - t0))"
  done
  echo "$all" | tr ' ' '\n' | sed '/^$/d' | sort -n | sed -n 3p
}
t0=$(ms)
for _ in $(seq 1 50); do sbatch --hold --parsable -o /dev/null --wrap true >/dev/null; done
t1=$(ms)
d=$((t1 - t0))
echo "sbatch --hold --wrap true, mean of 50: $((d / 50)) ms"
seq 51 "$n" | xargs -P 4 -n 50 sh -c 'for _ in "$@"; do sbatch --hold --parsable -o /dev/null --wrap true >/dev/null; done' _
echo "jobs in the queue: $(squeue -h -o %i | wc -l)"
echo "squeue, median of 5: $(median_ms squeue) ms"
echo "squeue -h -o %i, median of 5: $(median_ms squeue -h -o %i) ms"
scancel -u "$(id -un)" --state=PENDING
