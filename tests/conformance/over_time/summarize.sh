#!/usr/bin/env bash
# summarize.sh SAMPLES: the sequence of distinct states in scenarios.sh's samples, one line per
# change of a view, "VIEW<TAB>SECONDS<TAB>TEXT": SECONDS from the event when TEXT first showed.
# What may differ between two runs is normalized: the job id (squeue's first field, sacct's
# JobID, an id in a message) and the run time, which is only told zero or not (RunTime=0,
# RunTime=+). A view that printed nothing reads "(none)".
set -eu
awk -F'\t' -v OFS='\t' '
  {
    text = $3
    if ($2 == "squeue" || $2 == "sacct") sub(/^[0-9]+[ |]/, "", text)
    if (match(text, /RunTime=[0-9:-]+/)) {
      v = substr(text, RSTART + 8, RLENGTH - 8)
      text = substr(text, 1, RSTART - 1) "RunTime=" (v ~ /^[0:-]+$/ ? "0" : "+") substr(text, RSTART + RLENGTH)
    }
    gsub(/job [0-9]+/, "job ID", text)
    if (text == "") text = "(none)"
    if (!($2 in last) || last[$2] != text) {
      last[$2] = text
      order[++n] = $2 OFS $1 OFS text
    }
  }
  END { for (i = 1; i <= n; i++) print order[i] }
' "$1" | sort -t"$(printf '\t')" -k1,1 -s
