# 5x5's 4 v 4 subgame by the indexed explicit solver, build f3518e8 (release), alone on the
# 2-core machine, 2026-11-26 10:53-11:46 ($RUNS/explicit-4v4/run.sh):
/usr/bin/time -v dfasolve explicit ostle --width 5 --height 5 --pieces 4 --lose-at 3 --json \
    > ostle-5x5-4v4-explicit.json 2> ostle-5x5-4v4-explicit.err    # .err: progress; .time: /usr/bin/time
# resident KiB every 5 s: ostle-5x5-4v4-explicit.rss
# Against the DFA solve's census (ostle-5x5-4v4-final.census.json), row by row:
python3 - > ostle-5x5-4v4-explicit.compare.txt <<'PY'
import json
x = json.load(open("ostle-5x5-4v4-explicit.json"))
c = json.load(open("ostle-5x5-4v4-final.census.json"))
dfa = {r["what"]: r["raw"] for r in c["census"]["nontrivial_values"]}
ex = x["census"]
rows = [(f"d = {d}", n) for d, n in enumerate(ex["by_d"]) if n] + [("draw", ex["draws"])]
print(f"{'value':>8} {'DFA solve':>14} {'explicit':>14}")
for what, n in rows:
    print(f"{what:>8} {dfa.get(what, 0):>14} {n:>14} {'' if dfa.get(what, 0) == n else 'DIFFERENT'}")
same = all(dfa.get(w, 0) == n for w, n in rows) and set(dfa) == {w for w, _ in rows}
print(f"rows: {len(rows)}, every row equal: {same}")
for k in ("nontrivial_states", "checkmate_positions"):
    print(f"{k}: DFA {c['census'][k]['raw'] if isinstance(c['census'][k], dict) else c['census'][k]}, explicit {ex[k]}")
print(f"start: DFA {c['initial_value']}, explicit {x['initial_value']}; longest win: DFA {c['longest_win']}, explicit {x['longest_win']}")
# Each distance's new states against the DFA iteration of the same number (ostle-5x5-4v4-final.csv).
import csv
it = {}
for r in csv.DictReader(open("ostle-5x5-4v4-final.csv")):
    if r["set"] in ("new_win", "new_loss") and r["side"] == "first":
        it[int(r["step"])] = it.get(int(r["step"]), 0) + int(r["positions"])
levels = {l["plies"]: l["states"] for l in x["levels"]}
differ = [(d, it.get(d, 0), levels.get(d, 0)) for d in sorted(set(it) | set(levels)) if it.get(d, 0) != levels.get(d, 0)]
print(f"distances 0-{max(levels)}: new states differ from the DFA iteration's only at (plies, DFA, explicit): {differ}")
PY
