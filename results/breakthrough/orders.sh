#!/usr/bin/env bash
# Strong-solve Breakthrough boards in both square orders (--order rows|columns), one after the
# other, and write results/breakthrough/orders/orders.csv. Usage (from the repository root):
#   results/breakthrough/orders.sh [WxH ...]     (default: 6x4 7x4 8x4 4x5 5x5 3x6)
set -u
BIN=${BIN:-target/release/dfasolve}
OUT=results/breakthrough/orders
mkdir -p "$OUT"
sizes=${*:-6x4 7x4 8x4 4x5 5x5 3x6}
echo "width,height,order,initial_value,wall_s,peak_rss_mib,largest_step_dfa_states,solution_bytes,command" > "$OUT/orders.csv"
for size in $sizes; do
  w=${size%x*}; h=${size#*x}
  for order in rows columns; do
    name="$size-$order"
    args=(breakthrough --width "$w" --height "$h" --strong --order "$order" --json --no-save)
    /usr/bin/time -v -o "$OUT/$name.time" "$BIN" "${args[@]}" > "$OUT/$name.json" 2> "$OUT/$name.err" || { echo "$name failed" >&2; continue; }
    python3 - "$OUT/$name" "$w" "$h" "$order" "dfasolve ${args[*]}" >> "$OUT/orders.csv" <<'PY'
import json, re, sys
base, w, h, order, cmd = sys.argv[1:]
r = json.load(open(base + ".json"))
peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(base + ".time").read()).group(1))
print(f'{w},{h},{order},{r["initial_value"]},{r["wall_s"]:.2f},{peak // 1024},{r["largest_dfa"]["states"]},{r["solution_bytes"]},{cmd}')
PY
  done
done
cat "$OUT/orders.csv"
