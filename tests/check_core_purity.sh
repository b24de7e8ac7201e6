#!/usr/bin/env bash
# Fails when a pure scheduling core includes I/O, threading, clock or randomness headers
# or reads a clock: those belong to the daemons and the simulator, never to the core.
set -u
root=${1:-.}
status=0
for d in coordinator/core agent/core; do
  [ -d "$root/$d" ] || continue
  hits=$(grep -rnE '#include *[<"](zmq|zmq\.hpp|hwloc|sqlite3|systemd/|thread|mutex|fstream|filesystem|random|chrono|ctime|cstdio|iostream)|(system_clock|steady_clock|high_resolution_clock)::now|\btime\(|\brand\(' "$root/$d")
  if [ -n "$hits" ]; then
    echo "impure include or call in $d:"
    echo "$hits"
    status=1
  fi
done
[ $status -eq 0 ] && echo "core purity: ok"
exit $status
