#!/usr/bin/env bash
# Solve Othello boards over the positions reachable from the start, then their start's exact
# disc difference, each run limited to LIMIT seconds (so `--long` lets the estimate pass: the
# limit bounds it); then rebuild sizes.csv.
# Usage (from the repository root):
#   results/othello/sweep.sh [LIMIT_SECONDS] [WxH ...]
# Without sizes: 3x3 4x3 3x4 4x4 4x5 5x4. Each size writes its folder WxH-reachable/: the plain
# game (win/draw/loss: command.txt, report.json, record.csv, log.txt, time.txt) and --margin
# (margin-command.txt, margin-report.json, margin-log.txt, margin-time.txt).
set -u
LIMIT=${1:-3600}
shift || true
BIN=${BIN:-target/release/dfasolve}
OUT=results/othello
sizes=${*:-3x3 4x3 3x4 4x4 4x5 5x4}
run() { # DIR PREFIX ARGS...: one run under /usr/bin/time with its command, report and status
  local dir=$1 p=$2; shift 2
  mkdir -p "$dir"
  echo "dfasolve $*" > "$dir/${p}command.txt"
  /usr/bin/time -v -o "$dir/${p}time.txt" timeout "$LIMIT" "$BIN" "$@" > "$dir/${p}report.json.tmp" 2> "$dir/${p}log.txt"
  local rc=$?
  if [ $rc -eq 0 ]; then
    mv "$dir/${p}report.json.tmp" "$dir/${p}report.json"; rm -f "$dir/${p}status.txt"
  else
    rm -f "$dir/${p}report.json.tmp"
    if [ $rc -eq 124 ]; then echo "not finished within ${LIMIT} s" > "$dir/${p}status.txt"
    else echo "failed with exit $rc (see $dir/${p}log.txt)" > "$dir/${p}status.txt"; fi
  fi
}
for size in $sizes; do
  w=${size%x*}; h=${size#*x}
  run "$OUT/$size-reachable" "" othello --width "$w" --height "$h" --reachable --long --json --no-save --csv "$OUT/$size-reachable/record.csv" --max-memory 16
  run "$OUT/$size-reachable" margin- othello --width "$w" --height "$h" --reachable --margin --long --json --no-save --max-memory 16
  python3 "$OUT/summarize.py"
done
