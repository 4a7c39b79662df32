#!/usr/bin/env bash
# Whole strong solve against the solve by classes (docs/solving.md), same binary, one after the
# other, with /usr/bin/time -v. Usage (from the repository root, after cargo build --release):
#   results/classes/compare.sh "breakthrough --width 5 --height 5 --strong" ...
set -eu
BIN=${BIN:-target/release/dfasolve}
OUT=${OUT:-$HOME/dfasolve-runs/classes}
mkdir -p "$OUT"
for game in "$@"; do
  tag=$(echo "$game" | tr -d ' -')
  rm -rf "$OUT/classes-$tag"
  /usr/bin/time -v "$BIN" $game --no-save --json > "$OUT/whole-$tag.json" 2> "$OUT/whole-$tag.time"
  /usr/bin/time -v "$BIN" $game --no-save --json --by-classes "$OUT/classes-$tag" > "$OUT/classes-$tag.json" 2> "$OUT/classes-$tag.time"
  for kind in whole classes; do
    python3 - "$game" "$kind" "$OUT/$kind-$tag" <<'PY'
import json, re, sys
game, kind, stem = sys.argv[1:]
r = json.load(open(stem + ".json"))
t = open(stem + ".time").read()
cpu = float(re.search(r"User time \(seconds\): ([0-9.]+)", t)[1]) + float(re.search(r"System time \(seconds\): ([0-9.]+)", t)[1])
peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)[1]) // 1024
print(f'"dfasolve {game}",{kind},{r["initial_value"]},{r["wall_s"]:.1f},{cpu:.1f},{peak},{r["largest_dfa"]["states"]},{r["solution_bytes"]}')
PY
  done
done
