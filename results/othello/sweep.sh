#!/usr/bin/env bash
# Solve Othello boards over the positions reachable from the start, then their start's exact
# disc difference, each run limited to LIMIT seconds (so `--long` lets the estimate pass: the
# limit bounds it); then rebuild sizes.csv.
# Usage (from the repository root):
#   results/othello/sweep.sh [LIMIT_SECONDS] [WxH ...]
# Without sizes: 3x3 4x3 3x4 4x4 4x5 5x4. Each size writes runs/WxH.{cmd,json,csv,err,time}
# (the plain game, win/draw/loss) and runs/WxH-margin.{cmd,json,err,time} (--margin).
set -u
LIMIT=${1:-3600}
shift || true
BIN=${BIN:-target/release/dfasolve}
OUT=results/othello
mkdir -p "$OUT/runs"
sizes=${*:-3x3 4x3 3x4 4x4 4x5 5x4}
run() { # NAME ARGS...: one run under /usr/bin/time with its command, report and status
  local name=$1; shift
  echo "dfasolve $*" > "$OUT/runs/$name.cmd"
  /usr/bin/time -v -o "$OUT/runs/$name.time" timeout "$LIMIT" "$BIN" "$@" > "$OUT/runs/$name.json.tmp" 2> "$OUT/runs/$name.err"
  local rc=$?
  if [ $rc -eq 0 ]; then
    mv "$OUT/runs/$name.json.tmp" "$OUT/runs/$name.json"; rm -f "$OUT/runs/$name.status"
  else
    rm -f "$OUT/runs/$name.json.tmp"
    if [ $rc -eq 124 ]; then echo "not finished within ${LIMIT} s" > "$OUT/runs/$name.status"
    else echo "failed with exit $rc (see runs/$name.err)" > "$OUT/runs/$name.status"; fi
  fi
}
for size in $sizes; do
  w=${size%x*}; h=${size#*x}
  run "$size" othello --width "$w" --height "$h" --reachable --long --json --no-save --csv "$OUT/runs/$size.csv" --max-memory 16
  run "$size-margin" othello --width "$w" --height "$h" --reachable --margin --long --json --no-save --max-memory 16
  python3 "$OUT/summarize.py"
done
