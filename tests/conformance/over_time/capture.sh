#!/usr/bin/env bash
# capture.sh: runs scenarios.sh on the real Slurm 22.05 of ../shared/slurm-anchor as user
# nobody and keeps what squeue, sacct and scontrol showed over time in expected/ next to this
# file (each scenario's samples and, by summarize.sh, its sequence of distinct states): the
# spec over_time_test holds Fairway's commands to. It uses the anchor's accounting cluster
# (accounting.sh: slurmctld + slurmdbd, one node c2 of 16 CPUs, KillWait=5), the one where
# sacct answers: the two-node anchor has no accounting storage. Run as root (needs slurmdbd
# and mariadb-server); it takes the anchor under /work/wt/anchor.lock, starts it (and a
# munged if none answers) and stops what it started.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
anchor=${SLURM_ANCHOR:-$here/../../../../shared/slurm-anchor}
work=$(mktemp -d /tmp/over-time.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
flock /work/wt/anchor.lock bash -c '
  set -eu
  anchor=$0 work=$1 here=$2
  export SLURM_CONF=/var/tmp/slurm-acct/etc/slurm.conf
  munged_ours=
  if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    (SLURM_ANCHOR_RUN=$work/munge . "$anchor/lib.sh"; start_munge)
    munged_ours=$work/munge/munged.pid
  fi
  cleanup() {
    "$anchor/accounting.sh" stop || true
    if [ -n "$munged_ours" ]; then (SLURM_ANCHOR_RUN=$work/munge . "$anchor/lib.sh"; stop_munge); fi
  }
  trap cleanup EXIT
  "$anchor/accounting.sh" start >/dev/null
  sacctmgr -i add user nobody Account=science DefaultAccount=science >/dev/null 2>&1 || true
  install -d -o nobody "$work/out"
  runuser -u nobody -- env -C "$work/out" SLURM_CONF="$SLURM_CONF" PATH=/usr/bin:/bin \
    bash "$here/scenarios.sh" "$work/out"
  sinfo --version >"$work/version"
  scontrol show config | grep -E "^(KillWait|MinJobAge|OverTimeLimit) " >"$work/config"
' "$anchor" "$work" "$here"
rm -rf "$here/expected"
mkdir -p "$here/expected"
for s in "$work"/out/*.samples; do
  name=$(basename "$s" .samples)
  cp "$s" "$here/expected/"
  "$here/summarize.sh" "$s" >"$here/expected/$name.states"
done
{
  echo "Captured by capture.sh on $(date -u +%Y-%m-%d) from $(cat "$work/version")"
  echo "(../shared/slurm-anchor/accounting.sh: slurmctld + slurmdbd, one node c2 of 16 CPUs), with:"
  cat "$work/config"
} >"$here/expected/SOURCE"
echo "captured into $here/expected"
