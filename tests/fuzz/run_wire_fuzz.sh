#!/usr/bin/env bash
# Builds a fuzz target with clang and runs it for a bounded time: the wire decoder and the
# job store's request records (wire, the default) or the ZMTP framing of the coordinator's
# local router (zmtp), or what a step's task writes to its PMI socket and the fence bytes (pmi).
# Usage: tests/fuzz/run_wire_fuzz.sh [seconds] [wire|zmtp|pmi]   (default 20 wire). Exits
# non-zero on a crash.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds="${1:-20}"
target="${2:-wire}"
case "$target" in
  wire) sources=("$root"/shared/base/*.cpp "$root"/shared/model/*.cpp "$root"/shared/wire/*.cpp
                 "$root"/shared/net/step_frames.cpp "$root"/coordinator/daemon/stored_request.cpp
                 "$root"/coordinator/daemon/known_nodes.cpp
                 "$root"/coordinator/daemon/store_record.cpp
                 "$root"/tests/fuzz/wire_decode_fuzz.cpp) ;;
  pmi) sources=("$root"/shared/base/*.cpp "$root"/shared/wire/step_exchange.cpp
               "$root"/agent/step/pmi_wire.cpp "$root"/tests/fuzz/pmi_wire_fuzz.cpp) ;;
  zmtp) sources=("$root"/shared/base/*.cpp "$root"/shared/net/zmtp_frames.cpp
                 "$root"/tests/fuzz/zmtp_frames_fuzz.cpp) ;;
  *) echo "run_wire_fuzz: unknown target $target (wire, zmtp or pmi)" >&2; exit 2 ;;
esac
cxx="${FAIRWAY_FUZZ_CXX:-clang++-16}"
if ! command -v "$cxx" >/dev/null; then
  echo "run_wire_fuzz: $cxx not found (Debian packages clang-16 libclang-rt-16-dev)" >&2
  exit 1
fi

work="$(mktemp -d /tmp/fairway-wire-fuzz.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"

# libstdc++ 12 hides std::expected unless __cpp_concepts >= 202002L; clang 16 implements
# what <expected> needs (P0848) but still reports 201907L, so the macro is raised here.
# Line tables (not full -g) still give a crash's stack its files and lines, and the build,
# most of this test's time, is a fifth shorter.
"$cxx" -std=c++2b -O1 -gline-tables-only -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -Wno-builtin-macro-redefined -U__cpp_concepts -D__cpp_concepts=202002L \
  -DMSGPACK_NO_BOOST -DMSGPACK_DEFAULT_API_VERSION=3 \
  -I"$root" \
  "${sources[@]}" -o "$work/fuzz_target"

FAIRWAY_FUZZ_SEED_DIR="$work/corpus" "$work/fuzz_target" -runs=0 "$work/corpus" \
  >"$work/seed.log" 2>&1 || { tail -n 60 "$work/seed.log" >&2; exit 1; }

# Crash reproducers outlive the temporary directory (build-*/ is ignored by git).
artifacts="$root/build-fuzz/$target"
mkdir -p "$artifacts"
# -rss_limit_mb and -malloc_limit_mb turn a forged length that makes us allocate into a
# reported failure instead of a slow run.
status=0
"$work/fuzz_target" "$work/corpus" \
  -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 -malloc_limit_mb=512 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 >"$work/log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  tail -n 60 "$work/log" >&2
  echo "run_wire_fuzz: FAILED (status $status); reproducer in $artifacts/" >&2
  exit "$status"
fi
grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb)' \
  "$work/log"
echo "run_wire_fuzz: ok"
