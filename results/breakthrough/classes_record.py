#!/usr/bin/env python3
"""A run record (the CSV of `--csv`, phase `Class values`) of a solve by class jobs
(classes.sh), for `dfasolve plot`: per number of pawns on the board and side to move, the
wins and the losses of every class of that many pawns, summed from each class's report
(class-NAME.N.json, the last attempt that finished). elapsed_s adds up the class jobs' wall
times, fewest pawns first (the order the jobs ran in); peak_rss_bytes is the largest job's of
those pawns.

Usage: python3 results/breakthrough/classes_record.py RUN_DIR > NAME/by-pawns.csv
  e.g. python3 results/breakthrough/classes_record.py results/breakthrough/5x6-classes/classes \\
         > results/breakthrough/5x6-classes/by-pawns.csv"""
import glob, json, os, re, sys
from collections import defaultdict

run = sys.argv[1]
reports = {}
for path in glob.glob(os.path.join(run, "class-*.json")):
    m = re.fullmatch(r"class-(.+)\.(\d+)\.json", os.path.basename(path))
    if not m or os.path.getsize(path) == 0:
        continue
    report = json.load(open(path))
    if "values" not in report:
        continue
    name, attempt = m.group(1), int(m.group(2))
    if name not in reports or reports[name][0] < attempt:
        reports[name] = (attempt, report)
if not reports:
    sys.exit(f"{run}: no class report with values")

def pawns(name):
    w, b = name.split("v")
    return int(w) + int(b)

sums = defaultdict(lambda: [0, 0, 0])  # (pawns, side, win|loss) -> positions, states, bytes
wall = defaultdict(float)
peak = defaultdict(int)
games, programs = set(), set()
for name, (_, report) in reports.items():
    games.add(report["game"])
    programs.add(report["program"])
    wall[pawns(name)] += report["wall_s"]
    peak[pawns(name)] = max(peak[pawns(name)], report["peak_rss_bytes"])
    for v in report["values"]:
        s = sums[(pawns(name), v["side"], v["value"].split(" ")[0])]
        s[0] += v["positions"]
        s[1] += v["states"]
        s[2] += v["bytes"]
if len(games) != 1 or len(programs) != 1:
    sys.exit(f"{run}: reports of several games or builds: {sorted(games)} {sorted(programs)}")
game, program = games.pop(), programs.pop()

print("game,phase,step,side,set,positions,states,bytes,positions_per_byte,elapsed_s,peak_rss_bytes,class,program")
elapsed = 0.0
for p in sorted(wall):
    elapsed += wall[p]
    for side in ("first", "second"):
        for kind in ("win", "loss"):
            positions, states, size = sums.get((p, side, kind), (0, 0, 0))
            if positions == 0:
                continue
            print(f"{game},Class values,{p},{side},{kind},{positions},{states},{size},"
                  f"{positions / max(size, 1):.3f},{elapsed:.3f},{peak[p]},,{program}")
