#!/usr/bin/env python3
"""A run record (the CSV of `--csv`, phase `Classes`) of the class universes a sweep saved, for
`dfasolve plot`: one row per class and side to move, from `dfasolve stats --json` on each
universe-D.dfas in RUN_DIR; elapsed_s is when the class's file was saved, counted from the
first class's file (the sweep's own times, as the file system kept them).

Usage: python3 results/othello/universes_record.py DFASOLVE RUN_DIR GAME > NAME/record.csv
  e.g. python3 results/othello/universes_record.py target/release/dfasolve \\
         $RUNS/othello/5x5-differences "othello 5x5 reachable" > 5x5-universes/record.csv"""
import glob, json, os, re, subprocess, sys

dfasolve, run, game = sys.argv[1:4]
files = sorted(glob.glob(os.path.join(run, "universe-*.dfas")),
               key=lambda f: int(re.search(r"universe-(\d+)\.dfas", f).group(1)))
start = min(os.path.getmtime(f) for f in files)
print("game,phase,step,side,set,positions,states,bytes,positions_per_byte,elapsed_s,peak_rss_bytes,class,program")
for f in files:
    discs = int(re.search(r"universe-(\d+)\.dfas", f).group(1))
    stats = json.loads(subprocess.run([dfasolve, "stats", "--json", f], check=True, capture_output=True).stdout)
    for s in stats["sets"]:
        if s["positions"] == 0:
            continue
        per_byte = s["positions"] / max(s["disk_bytes"], 1)
        print(f"{game},Classes,{discs},{s['name']},universe,{s['positions']},{s['states']},{s['disk_bytes']},"
              f"{per_byte:.3f},{os.path.getmtime(f) - start:.3f},,,{stats['program']}")
