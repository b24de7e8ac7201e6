#!/usr/bin/env bash
# capture.sh: runs every row of rows.tsv on the real two-node Slurm 22.05 of
# ../shared/slurm-anchor (twonode.sh: nodes vm and vm1, 2 sockets x 14 cores, 128000 MB and
# two fake V100 each) as user nobody, and keeps what the jobs observed in expected/ next to
# this file: the spec conformance_test holds Fairway's front-ends to. Run as root; it starts
# the anchor under /work/wt/anchor.lock (another session may use it) and stops it after.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
anchor=${SLURM_ANCHOR:-$here/../../../shared/slurm-anchor}
work=$(mktemp -d /tmp/conformance.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
flock /work/wt/anchor.lock bash -c '
  set -eu
  "$0"/twonode.sh start >/dev/null
  trap "\"$0\"/twonode.sh stop" EXIT
  export SLURM_CONF=/var/tmp/slurm-twonode/etc/slurm.conf
  install -d -o nobody "$1/out"
  runuser -u nobody -- env SYSENV="SLURM_CONF=$SLURM_CONF" RUN_PATH=/usr/bin:/bin \
    bash "$2/run-rows.sh" "$2/rows.tsv" "$1/out"
  sinfo --version >"$1/version"
' "$anchor" "$work" "$here"
rm -rf "$here/expected"
mkdir -p "$here/expected"
cp -r "$work/out/cap/." "$here/expected/"
echo "$work/out/work" >"$here/expected/WORKDIR"
{
  echo "Captured by capture.sh on $(date -u +%Y-%m-%d) from $(cat "$work/version")"
  echo "(../shared/slurm-anchor/twonode.sh: nodes vm, vm1; 2 x 14 cores, 128000 MB, gpu:v100:2 each)."
} >"$here/expected/SOURCE"
echo "captured into $here/expected"
