#!/bin/bash
# Runs every command of docs/user-guide.md and docs/admin-guide.md (the `$ ` lines of their
# ```console blocks, heredocs included) in order, in one shell per guide, on a loopback
# cluster of a coordinator and two agents, and fails naming each command that exits
# non-zero. Usage: guide_commands.sh SOURCE_DIR BUILD_DIR. Needs root (the admin guide
# drains nodes; jobs run as the caller); exits 77 (skipped) otherwise.
set -u
src=$1
build=$(cd "$2" && pwd)
if [ "$(id -u)" != 0 ]; then echo "guide_commands: skipped: needs root"; exit 77; fi
for tool in jq sqlite3 curl; do
  command -v "$tool" >/dev/null || { echo "guide_commands: $tool is missing (scripts/install-deps installs it)"; exit 1; }
done

work=$(mktemp -d /tmp/fairway-guides.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  pkill -f "$work/spool" 2>/dev/null
  rm -rf "$work" /tmp/fairway-backup.db
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
       echo $((20000 + RANDOM % 20000)))
"$build/fairway-keygen" -d "$work/keys" coordinator cn-a cn-b >/dev/null
mkdir -p "$work/keys/agents" && cp "$work/keys/cn-a.pub" "$work/keys/cn-b.pub" "$work/keys/agents/"
cat > "$work/fairway.toml" <<TOML
[coordinator]
pass_interval = 1
metrics_listen = "127.0.0.1:$port"
[agent]
allow_root_jobs = true
heartbeat_interval = 1
kill_grace = 1
cgroups = "off"
[security]
coordinator_secret_key = "$work/keys/coordinator.key"
coordinator_public_key = "$work/keys/coordinator.pub"
agent_keys_dir = "$work/keys/agents"
TOML
export FAIRWAY_COORDINATOR="ipc://$work/clients.sock"
"$build/fairway-coordinator" --config "$work/fairway.toml" --listen-agents "ipc://$work/agents.sock" \
  --listen-clients "$FAIRWAY_COORDINATOR" --state-dir "$work/state" 2>"$work/coordinator.log" &
pids+=($!)
for n in cn-a cn-b; do
  "$build/fairway-agent" --coordinator "ipc://$work/agents.sock" --name "$n" \
    --topology "$src/tests/fixtures/topologies/kebnekaise-v100.xml" --spool "$work/spool/$n" \
    --config "$work/fairway.toml" --key "$work/keys/$n.key" 2>"$work/agent-$n.log" &
  pids+=($!)
done
for _ in $(seq 100); do
  up=$("$build/fairway" nodes --json 2>/dev/null | jq '[.nodes[] | select(.state == "idle")] | length' 2>/dev/null)
  [ "${up:-0}" = 2 ] && break
  sleep 0.1
done

# The metrics endpoint publishes a fresh snapshot each second: wait for one with the nodes.
for _ in $(seq 50); do
  curl -s "http://127.0.0.1:$port/metrics" | grep -q '^fairway_nodes{state="up"} 2' && break
  sleep 0.2
done
export PATH="$build:$PATH" FAIRWAY_BUILD="$build" FAIRWAY_STATE_DIR="$work/state" FAIRWAY_METRICS_PORT="$port"
export DESTDIR="$work/root" USER="${USER:-$(id -un)}"
failed=0
for guide in user-guide admin-guide; do
  script="$work/$guide.sh"
  # A `$ ` line is a command; a heredoc it opens runs on to its EOF line; other lines in a
  # console block are output, not run.
  awk '
    /^```console/ { inblock = 1; next }
    /^```/ { inblock = 0; next }
    !inblock { next }
    heredoc { print; if ($0 == "EOF") { heredoc = 0; print check }; next }
    /^\$ / {
      cmd = substr($0, 3)
      quoted = cmd; gsub(/\047/, "\047\\\047\047", quoted)
      print "printf \"%s\\n\" \047$ " quoted "\047"
      print cmd
      check = "__rc=$?; if [ $__rc -ne 0 ]; then printf \"GUIDE COMMAND FAILED (exit %s): %s\\n\" \"$__rc\" \047" quoted "\047; __failed=$((__failed + 1)); fi"
      if (cmd ~ /<<\047?EOF\047?/) { heredoc = 1 } else { print check }
    }
  ' "$src/docs/$guide.md" > "$script.body"
  { echo '__failed=0'; cat "$script.body"; echo 'exit $__failed'; } > "$script"
  count=$(grep -c '^__rc=' "$script")
  mkdir -p "$work/run-$guide"
  (cd "$work/run-$guide" && bash "$script") > "$work/$guide.log" 2>&1
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "guide_commands: $guide: $rc of $count commands failed"
    grep -B3 'GUIDE COMMAND FAILED' "$work/$guide.log"
    failed=1
  else
    echo "guide_commands: $guide: all $count commands ran"
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "---- coordinator log"; grep -v job_ "$work/coordinator.log" | tail -20
fi
exit "$failed"
