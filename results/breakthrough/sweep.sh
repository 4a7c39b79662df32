#!/usr/bin/env bash
# Solve Breakthrough for W = 2..8, H = 4..8 (smallest boards first), one strong solve per size,
# each limited to $LIMIT seconds, and collect one row per size into sizes.csv.
# Usage: results/breakthrough/sweep.sh [LIMIT_SECONDS]   (run from the repository root)
set -u
LIMIT=${1:-900}
BIN=${BIN:-target/release/dfasolve}
OUT=results/breakthrough
mkdir -p "$OUT/runs"
echo "width,height,winner,initial_value,wall_s,peak_rss_mib,largest_dfa_states,largest_dfa_bytes,positions_solved,solution_bytes,positions_per_byte,status,command" > "$OUT/sizes.csv"
sizes=$(for w in 2 3 4 5 6 7 8; do for h in 4 5 6 7 8; do echo "$((w*h)) $w $h"; done; done | sort -n -k1 -k2)
while read -r _ w h; do
  cmd="dfasolve breakthrough --width $w --height $h --strong --json --no-save --csv $OUT/runs/${w}x${h}.csv"
  json=$(timeout "$LIMIT" "$BIN" breakthrough --width "$w" --height "$h" --strong --json --no-save --csv "$OUT/runs/${w}x${h}.csv" 2>"$OUT/runs/${w}x${h}.err")
  rc=$?
  if [ $rc -eq 0 ]; then
    echo "$json" > "$OUT/runs/${w}x${h}.json"
    python3 - "$w" "$h" "$cmd" "$OUT/runs/${w}x${h}.json" >> "$OUT/sizes.csv" <<'PY'
import json, sys
w, h, cmd, path = sys.argv[1:]
r = json.load(open(path))
print(",".join(str(x) for x in [w, h, r["winner"].split(" (")[0], r["initial_value"], round(r["wall_s"], 2),
    (r["peak_rss_bytes"] or 0) >> 20, r["largest_dfa"]["states"], r["largest_dfa"]["bytes"], r["positions_solved"],
    r["solution_bytes"], round(r["positions_per_byte"], 1), "solved", '"' + cmd + '"']))
PY
  elif [ $rc -eq 124 ]; then
    echo "$w,$h,,,,,,,,,,not finished within ${LIMIT} s,\"$cmd\"" >> "$OUT/sizes.csv"
  else
    echo "$w,$h,,,,,,,,,,failed (exit $rc; see runs/${w}x${h}.err),\"$cmd\"" >> "$OUT/sizes.csv"
  fi
done <<< "$sizes"
