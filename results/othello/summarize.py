#!/usr/bin/env python3
"""Build results/othello/sizes.csv from runs/WxH.{json,cmd,time} (the plain game over the
positions reachable from the start) and runs/WxH-margin.json (the start's exact disc
difference), both written by sweep.sh."""
import glob, json, os

here = os.path.dirname(os.path.abspath(__file__))


def cpu_seconds(name):
    """User + system seconds from runs/NAME.time (`/usr/bin/time -v`), or ''."""
    path = os.path.join(here, "runs", name + ".time")
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
    name = os.path.basename(cmd_file)[:-4]
    if name.endswith("-margin"):
        continue
    w, h = map(int, name.split("x"))
    js, st = os.path.join(here, "runs", name + ".json"), os.path.join(here, "runs", name + ".status")
    margin = os.path.join(here, "runs", name + "-margin.json")
    diff = json.load(open(margin))["start_difference"] if os.path.exists(margin) else ""
    margin_wall = round(json.load(open(margin))["wall_s"], 1) if os.path.exists(margin) else ""
    cmd = open(cmd_file).read().strip()
    if os.path.exists(js):
        r = json.load(open(js))
        rows.append([w, h, "reachable from the start", r["winner"].split(" (")[0], r["initial_value"], diff,
                     round(r["wall_s"], 2), cpu_seconds(name), (r["peak_rss_bytes"] or 0) >> 20,
                     r["largest_dfa"]["states"], r["positions_solved"], r["solution_bytes"],
                     round(r["positions_per_byte"], 2), margin_wall, "solved", cmd])
    elif os.path.exists(st):
        rows.append([w, h, "reachable from the start", "", "", diff, "", "", "", "", "", "", "", margin_wall,
                     open(st).read().strip(), cmd])
rows.sort(key=lambda r: (r[0] * r[1], r[0]))
with open(os.path.join(here, "sizes.csv"), "w") as f:
    f.write("width,height,positions,winner,initial_value,start_difference,wall_s,cpu_s,peak_rss_mib,"
            "largest_step_dfa_states,positions_solved,solution_bytes,positions_per_byte,margin_wall_s,status,command\n")
    for r in rows:
        f.write(",".join('"%s"' % x if isinstance(x, str) and "," in x else str(x) for x in r) + "\n")
