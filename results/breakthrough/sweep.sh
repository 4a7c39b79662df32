#!/usr/bin/env bash
# Strong-solve Breakthrough boards, each limited to LIMIT seconds, each into its folder WxH-strong/
# (command, record, report, log, time), then rebuild sizes.csv.
# Usage (from the repository root):
#   results/breakthrough/sweep.sh [LIMIT_SECONDS] [WxH ...]
# Without sizes: W = 2..8, H = 4..8, smallest boards first. Each run checkpoints every
# iteration under checkpoints/, so running the same size again resumes where it stopped.
set -u
LIMIT=${1:-900}
shift || true
BIN=${BIN:-target/release/dfasolve}
OUT=results/breakthrough
if [ $# -gt 0 ]; then
  sizes="$*"
else
  sizes=$(for w in 2 3 4 5 6 7 8; do for h in 4 5 6 7 8; do echo "$((w*h)) ${w}x${h}"; done; done | sort -n -k1 | cut -d' ' -f2)
fi
for size in $sizes; do
  w=${size%x*}; h=${size#*x}
  dir="$OUT/$size-strong"
  mkdir -p "$dir"
  args=(breakthrough --width "$w" --height "$h" --strong --json --no-save --csv "$dir/record.csv" --checkpoint "checkpoints/breakthrough-$size-strong")
  echo "dfasolve ${args[*]}" > "$dir/command.txt"
  start=$(date +%s)
  /usr/bin/time -v -o "$dir/time.txt" timeout "$LIMIT" "$BIN" "${args[@]}" > "$dir/report.json.tmp" 2> "$dir/log.txt"
  rc=$?
  if [ $rc -eq 0 ]; then
    mv "$dir/report.json.tmp" "$dir/report.json"
    rm -f "$dir/status.txt"
  else
    rm -f "$dir/report.json.tmp"
    if [ $rc -eq 124 ]; then
      echo "not finished within ${LIMIT} s (this attempt; checkpointed, resumable)" > "$dir/status.txt"
    else
      echo "failed with exit $rc after $(( $(date +%s) - start )) s (see $dir/log.txt)" > "$dir/status.txt"
    fi
  fi
  python3 "$OUT/summarize.py"
done
