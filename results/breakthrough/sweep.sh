#!/usr/bin/env bash
# Strong-solve Breakthrough boards, each limited to LIMIT seconds, then rebuild sizes.csv.
# Usage (from the repository root):
#   results/breakthrough/sweep.sh [LIMIT_SECONDS] [WxH ...]
# Without sizes: W = 2..8, H = 4..8, smallest boards first. Each run checkpoints every
# iteration under checkpoints/, so running the same size again resumes where it stopped.
set -u
LIMIT=${1:-900}
shift || true
BIN=${BIN:-target/release/dfasolve}
OUT=results/breakthrough
mkdir -p "$OUT/runs"
if [ $# -gt 0 ]; then
  sizes="$*"
else
  sizes=$(for w in 2 3 4 5 6 7 8; do for h in 4 5 6 7 8; do echo "$((w*h)) ${w}x${h}"; done; done | sort -n -k1 | cut -d' ' -f2)
fi
for size in $sizes; do
  w=${size%x*}; h=${size#*x}
  args=(breakthrough --width "$w" --height "$h" --strong --json --no-save --csv "$OUT/runs/$size.csv" --checkpoint "checkpoints/breakthrough-$size-strong")
  echo "dfasolve ${args[*]}" > "$OUT/runs/$size.cmd"
  start=$(date +%s)
  /usr/bin/time -v -o "$OUT/runs/$size.time" timeout "$LIMIT" "$BIN" "${args[@]}" > "$OUT/runs/$size.json.tmp" 2> "$OUT/runs/$size.err"
  rc=$?
  if [ $rc -eq 0 ]; then
    mv "$OUT/runs/$size.json.tmp" "$OUT/runs/$size.json"
    rm -f "$OUT/runs/$size.status"
  else
    rm -f "$OUT/runs/$size.json.tmp"
    if [ $rc -eq 124 ]; then
      echo "not finished within ${LIMIT} s (this attempt; checkpointed, resumable)" > "$OUT/runs/$size.status"
    else
      echo "failed with exit $rc after $(( $(date +%s) - start )) s (see runs/$size.err)" > "$OUT/runs/$size.status"
    fi
  fi
  python3 "$OUT/summarize.py"
done
