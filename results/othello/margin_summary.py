#!/usr/bin/env python3
"""Sum up a search for the start's exact disc difference made by runs/margin-by-classes.sh:
   python3 results/othello/margin_summary.py RUN_DIR WxH > results/othello/runs/WxH-margin.json
RUN_DIR holds search.txt and thr/T/class-N.json (one report per class job and threshold). The
JSON written has the difference, each threshold's value of the start, and the wall seconds of
the class jobs that the search ran itself (threshold 0 is the plain solve when thr/0 is a link
to it; its jobs are counted apart, as that solve's own row already has them)."""
import glob, json, os, re, sys

run, name = sys.argv[1], sys.argv[2]
search = open(os.path.join(run, "search.txt")).read()
found = re.search(r"Black's difference: (-?\d+)", search)
if not found:
    sys.exit("%s: the search has not ended (no difference in search.txt)" % run)
thresholds = {int(t): v for t, v in re.findall(r"threshold (-?\d+): (\w+)", search)}


def walls(t):
    return [json.load(open(f))["wall_s"] for f in glob.glob(os.path.join(run, "thr", str(t), "class-*.json"))]


plain = os.path.islink(os.path.join(run, "thr", "0"))
searched = [t for t in thresholds if not (t == 0 and plain)]
json.dump({
    "board": name,
    "start_difference": int(found.group(1)),
    "convention": "Black (to move at the start) minus White, empty squares counted for nobody",
    "thresholds": {str(t): thresholds[t] for t in sorted(thresholds)},
    "wall_s": round(sum(sum(walls(t)) for t in searched), 1),
    "class_jobs": sum(len(walls(t)) for t in searched),
    "threshold_0_is_the_plain_solve": plain,
}, sys.stdout, indent=1)
print()
