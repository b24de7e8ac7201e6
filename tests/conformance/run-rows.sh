#!/usr/bin/env bash
# run-rows.sh ROWS OUT: submits every row of ROWS (rows.tsv) with the sbatch, srun, squeue and
# scontrol found on PATH, waits for the jobs, and writes what each job observed to OUT/<row>/.
# The same script runs on the real Slurm (capture.sh) and on Fairway (conformance_test), so
# the two captures differ only by what the schedulers did. Run as the user the jobs run as.
# Per row: submit.txt (sbatch's words, then "exit N"), env.txt (the batch script's whole
# environment), aff.txt (its CPU list), scontrol.txt / squeue.txt (its job as the commands
# print it while it runs; squeue once per field, so that a field a front-end lacks fails
# alone: the Slurm captures of 2026-11-28 have the fields on one line, split by "|"), srun.txt (one line per task of an srun inside it, then "exit N"),
# srunenv.txt (task 0's SLURM_*), files.txt (the files the job left in its directory),
# final.txt (scontrol show job once it ended), begin.txt (whole seconds from submit to start).
# Array rows write one set per task, suffixed .TASK. SYSENV: "NAME=value ..." every job and
# command needs to reach its scheduler (SLURM_CONF or FAIRWAY_COORDINATOR).
set -u
rows=$1 out=$2
sysenv=${SYSENV:-}
path=${RUN_PATH:-/usr/bin:/bin}
mkdir -p "$out/work" "$out/cap"
chmod 777 "$out" "$out/work" "$out/cap" 2>/dev/null || true
caller_env() {  # the caller's environment: a plain login's, the scheduler's, the row's
  echo "PATH=$path HOME=/tmp USER=$(id -un) LOGNAME=$(id -un) SHELL=/bin/sh LANG=C $sysenv"
}
ids=()
names=()
while IFS=$'\t' read -r name args envs head tail; do
  case $name in ''|'#'*) continue ;; esac
  [ "$args" = - ] && args=
  [ "$envs" = - ] && envs=
  [ "${head:--}" = - ] && head=
  [ "${tail:--}" = - ] && tail=
  w=$out/work/$name c=$out/cap/$name
  mkdir -p "$w/sub" "$c"
  {
    echo '#!/bin/bash'
    printf '%b\n' "$head"
    cat <<BODY
C=$c\${SLURM_ARRAY_TASK_ID:+/\$SLURM_ARRAY_TASK_ID}; mkdir -p \$C
date +%s >\$C/start.txt
env | LC_ALL=C sort >\$C/env.txt
grep Cpus_allowed_list: /proc/self/status | cut -f2 >\$C/aff.txt
export PATH=$path $sysenv
scontrol show job -o \$SLURM_JOB_ID >\$C/scontrol.txt 2>&1
for f in %j %P %l %D %C %b %m %c %t %y %k %a %q; do echo "\$(squeue -h -j \$SLURM_JOB_ID -o \$f 2>&1 | head -n1)"; done >\$C/squeue.txt
timeout 60 srun bash -c 'echo "\$SLURM_PROCID \$SLURM_LOCALID \$SLURM_NODEID \$SLURMD_NODENAME \$(grep Cpus_allowed_list: /proc/self/status | cut -f2) \${CUDA_VISIBLE_DEVICES-unset}"; if [ "\$SLURM_PROCID" = 0 ]; then env | grep -E "^(SLURM|CUDA|GPU_DEVICE|OMP_)" | LC_ALL=C sort >'\$C'/srunenv.txt; fi' >\$C/srun.txt 2>&1
echo "exit \$?" >>\$C/srun.txt
echo out-line; echo err-line >&2
BODY
    printf '%b\n' "$tail"
  } >"$w/job.sh"
  chmod 755 "$w/job.sh"
  date +%s >"$c/submitted.txt"
  # shellcheck disable=SC2086
  (cd "$w" && env -i $(caller_env) $envs sbatch --parsable $args job.sh) >"$c/submit.txt" 2>&1
  rc=$?
  # The id is sbatch's first line that is one, after any warning it printed first.
  id=$(cut -d';' -f1 "$c/submit.txt" | grep -m1 -E '^[0-9]+$')
  echo "exit $rc" >>"$c/submit.txt"
  if [ "$rc" = 0 ] && [[ $id =~ ^[0-9]+$ ]]; then ids+=("$id"); names+=("$name"); echo "$id" >"$c/id.txt"; fi
done <"$rows"
export PATH=$path
# shellcheck disable=SC2046
export $sysenv
# Until every job has ended, or none has run for 15 s while some still wait (a request no
# node can ever hold waits forever on Slurm): those are cancelled. 5 minutes at most.
idle=0
for _ in $(seq 1 600); do
  states=$(squeue -h -o %t 2>/dev/null)
  [ -z "$states" ] && break
  if echo "$states" | grep -qv '^PD$'; then idle=0; else idle=$((idle + 1)); fi
  [ "$idle" -ge 30 ] && break
  sleep 0.5
done
squeue -h -o %i 2>/dev/null | xargs -r scancel 2>/dev/null
sleep 1
for k in "${!ids[@]}"; do
  c=$out/cap/${names[$k]}
  scontrol show job -o "${ids[$k]}" >"$c/final.txt" 2>&1
  (cd "$out/work/${names[$k]}" && find . -type f ! -name job.sh | LC_ALL=C sort) >"$c/files.txt"
  for f in "$c"/start.txt "$c"/*/start.txt; do
    [ -f "$f" ] && echo $(( $(cat "$f") - $(cat "$c/submitted.txt") )) >"${f%start.txt}begin.txt"
  done
done
echo "ran ${#ids[@]} jobs"
