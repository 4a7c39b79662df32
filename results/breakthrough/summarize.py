#!/usr/bin/env python3
"""Build results/breakthrough/sizes.csv from runs/WxH.{json,status,cmd} (strong solves, written by
sweep.sh) and runs/WxH-mitmD.{json,cmd,note} (meet-in-the-middle solves of depth D)."""
import glob, json, os

here = os.path.dirname(os.path.abspath(__file__))
def cpu_seconds(size):
    """User + system seconds from runs/SIZE.time (`/usr/bin/time -v`), or '' if not measured."""
    path = os.path.join(here, "runs", size + ".time")
    if not os.path.exists(path):
        return ""
    times = {}
    for line in open(path):
        key, _, value = line.strip().partition(": ")
        if key in ("User time (seconds)", "System time (seconds)"):
            times[key] = float(value)
    return round(sum(times.values()), 1) if len(times) == 2 else ""


rows = []
for cmd_file in glob.glob(os.path.join(here, "runs", "*.cmd")):
    size = os.path.basename(cmd_file)[:-4]
    board, _, mitm = size.partition("-mitm")
    w, h = map(int, board.split("x"))
    # A strong solve values every position; meet in the middle, those reachable from the start.
    mode = "meet in the middle (depth %s): reachable positions" % mitm if mitm else "strong: every position"
    cmd = open(cmd_file).read().strip()
    js = os.path.join(here, "runs", size + ".json")
    st = os.path.join(here, "runs", size + ".status")
    note = os.path.join(here, "runs", size + ".note")
    # runs/WxH.note: what a reader of the row must know (e.g. a resumed run's wall time).
    status = "solved" + ("; " + open(note).read().strip() if os.path.exists(note) else "")
    if os.path.exists(js):
        r = json.load(open(js))
        rows.append([w, h, mode, r["winner"].split(" (")[0], r["initial_value"], round(r["wall_s"], 2), cpu_seconds(size),
                     (r["peak_rss_bytes"] or 0) >> 20, r["largest_dfa"]["states"], r["largest_dfa"]["bytes"],
                     r["positions_solved"], r["solution_bytes"], round(r["positions_per_byte"], 1), status, cmd])
    elif os.path.exists(st):
        rows.append([w, h, mode, "", "", "", "", "", "", "", "", "", "", open(st).read().strip(), cmd])
rows.sort(key=lambda r: (r[0] * r[1], r[0], r[2]))
with open(os.path.join(here, "sizes.csv"), "w") as f:
    f.write("width,height,mode,winner,initial_value,wall_s,cpu_s,peak_rss_mib,largest_step_dfa_states,largest_step_dfa_bytes,"
            "positions_solved,solution_bytes,positions_per_byte,status,command\n")
    for r in rows:
        f.write(",".join('"%s"' % x if isinstance(x, str) and "," in x else str(x) for x in r) + "\n")
