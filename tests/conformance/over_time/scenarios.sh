#!/usr/bin/env bash
# scenarios.sh OUT: what squeue, sacct and scontrol show of one job in the seconds around a
# change of its state, sampled as a sequence over time (issue 35): a running job cancelled
# (cancel), one reaching its time limit (timeout), one requeued while it runs (requeue), one
# that ends (complete) and one that fails with exit 3 (fail). Runs with whichever sbatch,
# squeue, sacct, scontrol and scancel are first on PATH, as the user the jobs run as: the
# same script runs on the real Slurm (capture.sh) and on Fairway (over_time_test).
# The jobs trap SIGTERM and keep sleeping, so a cancel or a time limit ends them only with
# the scheduler's SIGKILL after its grace (Slurm's KillWait).
# Writes OUT/<scenario>.samples: one line per view per sample, "SECONDS<TAB>VIEW<TAB>TEXT",
# SECONDS from the event (the scancel or scontrol requeue; the script's last moment for
# complete and fail; the first sample where squeue no longer says RUNNING for timeout),
# VIEW squeue|sacct|scontrol; summarize.sh turns them into the sequence of distinct states.
set -u
out=$1
mkdir -p "$out/work"
cd "$out/work" || exit 1
SAMPLE_EVERY=${SAMPLE_EVERY:-0.5}   # seconds between samples
AFTER=${AFTER:-12}                  # seconds sampled after the event

now() { date +%s.%N; }
# One sample of job $1, each view's line stamped with the moment it was taken.
sample() {
  local id=$1 t q a s
  t=$(now); q=$(squeue -h -j "$id" -o '%i %T %r' 2>&1 | head -n1)
  printf '%s\tsqueue\t%s\n' "$t" "$q"
  t=$(now); a=$(sacct -n -X -P -j "$id" -o JobID,State,ExitCode 2>&1 | head -n1)
  printf '%s\tsacct\t%s\n' "$t" "$a"
  t=$(now)
  s=$(scontrol show job "$id" 2>&1 | tr ' ' '\n' | grep -E '^(JobState|Reason|ExitCode|RunTime|Restarts)=' | tr '\n' ' ')
  [ -n "$s" ] || s=$(scontrol show job "$id" 2>&1 | head -n1)
  printf '%s\tscontrol\t%s\n' "$t" "${s% }"
}
# sample_until ID END_EPOCH: samples every SAMPLE_EVERY seconds until END_EPOCH.
sample_until() {
  while awk -v n="$(now)" -v e="$2" 'BEGIN { exit !(n < e) }'; do
    sample "$1"
    sleep "$SAMPLE_EVERY"
  done
}
# A job script that ignores SIGTERM's first meaning: it notes it and keeps sleeping.
trapping_job() {
  cat <<'EOF'
#!/bin/bash
trap 'echo "got SIGTERM at $(date +%s.%N)"' TERM
echo "started at $(date +%s.%N)"
while :; do sleep 1 & wait $!; done
EOF
}
# A job script that runs $1 seconds, notes its last moment in $2, and exits with $3.
ending_job() {
  cat <<EOF
#!/bin/bash
sleep $1
date +%s.%N >$2
exit $3
EOF
}
submit() {  # submit NAME SBATCH_OPTIONS... < script: the job id
  local name=$1; shift
  cat >"$name.sh"
  chmod 755 "$name.sh"
  sbatch --parsable -J "$name" -o "$name.out" "$@" "$name.sh" | cut -d';' -f1
}
wait_running() {  # wait_running ID: until squeue says RUNNING, at most 120 s
  for _ in $(seq 1 240); do
    [ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = RUNNING ] && return 0
    sleep 0.5
  done
  echo "job $1 never ran" >&2
  return 1
}
# Rewrites raw samples (epoch seconds) relative to the event EPOCH into OUT/NAME.samples.
relative() {  # relative NAME EPOCH < raw
  awk -F'\t' -v e="$2" -v OFS='\t' '{ printf "%.2f\t%s\t%s\n", $1 - e, $2, $3 }' >"$out/$1.samples"
}

# The time limit first: it takes a minute to come, while the others run.
timeout_id=$(trapping_job | submit timeout --time=1) || exit 1
wait_running "$timeout_id" || exit 1
timeout_started=$(now)
# timeout: from 50 s after it started (its limit is 60 s) until AFTER seconds past the first
# sample where squeue no longer says RUNNING (Slurm looks at limits every 30 s: the kill
# comes 60 to 90 s after the start), at most 150 s after the start. In the background,
# while the other scenarios run.
sample_timeout() {
  sleep "$(awk -v s="$timeout_started" -v n="$(now)" 'BEGIN { d = s + 50 - n; printf "%.3f", (d > 0 ? d : 0) }')"
  local id=$timeout_id changed= n
  : >timeout.raw
  while :; do
    sample "$id" >timeout.one
    cat timeout.one >>timeout.raw
    if [ -z "$changed" ] && ! grep -q "$(printf '\tsqueue\t')[0-9]* RUNNING " timeout.one; then
      changed=$(head -n1 timeout.one | cut -f1)
    fi
    n=$(now)
    if [ -n "$changed" ]; then
      awk -v n="$n" -v c="$changed" -v a="$AFTER" 'BEGIN { exit !(n > c + a) }' && break
    fi
    awk -v n="$n" -v s="$timeout_started" 'BEGIN { exit !(n > s + 150) }' && break
    sleep "$SAMPLE_EVERY"
  done
  [ -n "$changed" ] || { echo "timeout: the job never changed" >&2; exit 1; }
  echo "$changed" >timeout.event
  relative timeout "$changed" <timeout.raw
}
sample_timeout &
timeout_sampler=$!

# cancel: scancel while it runs.
id=$(trapping_job | submit cancel) && wait_running "$id" || exit 1
sleep 2
{
  sample_until "$id" "$(awk -v n="$(now)" 'BEGIN { printf "%.3f", n + 1.5 }')"
  event=$(now); scancel "$id"; echo "$event" >cancel.event
  sample_until "$id" "$(awk -v n="$event" -v a="$AFTER" 'BEGIN { printf "%.3f", n + a }')"
} >cancel.raw
relative cancel "$(cat cancel.event)" <cancel.raw

# requeue: scontrol requeue while it runs.
id=$(trapping_job | submit requeue) && wait_running "$id" || exit 1
sleep 2
{
  sample_until "$id" "$(awk -v n="$(now)" 'BEGIN { printf "%.3f", n + 1.5 }')"
  event=$(now); scontrol requeue "$id"; echo "$event" >requeue.event
  sample_until "$id" "$(awk -v n="$event" -v a="$AFTER" 'BEGIN { printf "%.3f", n + a }')"
} >requeue.raw
relative requeue "$(cat requeue.event)" <requeue.raw
scancel "$id" 2>/dev/null

# complete and fail: the script ends 4 s after it started.
for name in complete fail; do
  code=0; [ "$name" = fail ] && code=3
  id=$(ending_job 4 "$PWD/$name.event" "$code" | submit "$name") && wait_running "$id" || exit 1
  start=$(now)
  sample_until "$id" "$(awk -v n="$start" -v a="$AFTER" 'BEGIN { printf "%.3f", n + 4 + a }')" >"$name.raw"
  [ -s "$name.event" ] || { echo "$name: the job did not note its end" >&2; exit 1; }
  relative "$name" "$(cat "$name.event")" <"$name.raw"
done

wait "$timeout_sampler" || exit 1
echo "scenarios done"
