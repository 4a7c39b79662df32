#!/usr/bin/env python3
"""Build results/othello/sizes.csv from runs/WxH.{json,cmd,time} (the plain game over the
positions reachable from the start) and runs/WxH-margin.json (the start's exact disc
difference), both written by sweep.sh; and of boards solved by class jobs, from
runs/WxH-classes.csv and runs/WxH-classes/ (written by runs/WxH-classes.sh), with the start's
difference from runs/WxH-margin.json where margin_summary.py wrote it; and the exact
differences by rank (`othello --differences`, runs/WxH-differences.{json,err,cmd,files}), which give
a by-classes board its start's difference, or a board of their own its row."""
import csv, glob, json, os, re

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


def differences(name):
    """The run of `othello --differences` on board NAME, or None: its report with the command,
    the CPU and the peak of its `/usr/bin/time -v` lines in runs/NAME-differences.err."""
    js = os.path.join(here, "runs", name + "-differences.json")
    if not os.path.exists(js):
        return None
    d = json.load(open(js))
    err = open(os.path.join(here, "runs", name + "-differences.err")).read()
    d["cpu_s"] = round(sum(map(float, re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", err))), 1)
    d["peak_mib"] = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1)) >> 10
    d["cmd"] = open(os.path.join(here, "runs", name + "-differences.cmd")).read().strip().splitlines()[-1]
    d["wall_s"] = round(d["wall_s"], 1)
    d["cmd"] = d["cmd"].replace("/usr/bin/time -v ", "")
    # Builds before 90dca0d do not report the universes' bytes: runs/NAME-differences.files
    # lists the run directory's universe files and tables (bytes, name).
    listing = os.path.join(here, "runs", name + "-differences.files")
    if d.get("universe_bytes") is None and os.path.exists(listing):
        d["universe_bytes"] = sum(int(line.split()[0]) for line in open(listing) if "universe-" in line)
    return d


def margin_of(name):
    """runs/NAME-margin.json (a search over thresholds), or None."""
    margin = os.path.join(here, "runs", name + "-margin.json")
    return json.load(open(margin)) if os.path.exists(margin) else None


rows = []
for cmd_file in glob.glob(os.path.join(here, "runs", "*.cmd")):
    name = os.path.basename(cmd_file)[:-4]
    if not re.fullmatch(r"\d+x\d+", name):
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


def cpu_of_err(path):
    """User + system seconds from a job's stderr ending in `/usr/bin/time -v`'s report."""
    times = re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", open(path).read())
    return sum(map(float, times))


# Boards solved by class jobs (runs/WxH-classes.sh): runs/WxH-classes.csv is the per-class table
# (classes_summary.py), runs/WxH-classes/ each job's stderr and report and the start's query.
for table in glob.glob(os.path.join(here, "runs", "*-classes.csv")):
    name = os.path.basename(table)[: -len("-classes.csv")]
    w, h = map(int, name.split("x"))
    jobs = os.path.join(here, "runs", name + "-classes")
    classes = list(csv.DictReader(open(table)))
    query = open(os.path.join(jobs, "query-start.txt")).read()
    value = re.search(r"value for the first player \(to move\): (.+)", query).group(1)
    winner = {"win": "first player", "loss": "second player", "draw": "draw"}[value.split()[0]]
    errs = glob.glob(os.path.join(jobs, "class-*.err"))
    positions = sum(int(c["valued_positions"]) for c in classes)
    solution = sum(int(c["value_sets_bytes"]) for c in classes)
    cmd = "results/othello/runs/%s-classes.sh (one dfasolve othello --reachable --by-classes job per class)" % name
    # The start's difference: from the differences by rank, or from a search by class jobs
    # over thresholds (margin_summary.py).
    m = differences(name) or margin_of(name)
    rows.append([w, h, "reachable from the start, by classes of discs", winner, value,
                 m["start_difference"] if m else "",
                 round(sum(float(c["wall_s"]) for c in classes), 1), round(sum(cpu_of_err(e) for e in errs), 1),
                 max(int(c["peak_rss_kib"]) for c in classes) >> 10,
                 "", positions, solution,
                 round(positions / solution, 2), m["wall_s"] if m else "",
                 "solved" if m else "solved; exact margin not yet solved", cmd])

# Boards whose only run is the differences by rank.
solved = {(r[0], r[1]) for r in rows}
for js in glob.glob(os.path.join(here, "runs", "*-differences.json")):
    name = os.path.basename(js)[: -len("-differences.json")]
    w, h = map(int, name.split("x"))
    if (w, h) in solved:
        continue
    d = differences(name)
    v = d["start_difference"]
    winner, value = ("first player", "win") if v > 0 else ("second player", "loss") if v < 0 else ("draw", "draw")
    table = d["table_bytes"] + (d.get("universe_bytes") or 0)
    rows.append([w, h, "reachable from the start, exact differences by rank", winner, value, v,
                 d["wall_s"], d["cpu_s"], d["peak_mib"], "", d["positions"], table,
                 round(d["positions"] / table, 2), d["wall_s"], "solved", d["cmd"]])
rows.sort(key=lambda r: (r[0] * r[1], r[0]))
with open(os.path.join(here, "sizes.csv"), "w") as f:
    f.write("width,height,positions,winner,initial_value,start_difference,wall_s,cpu_s,peak_rss_mib,"
            "largest_step_dfa_states,positions_solved,solution_bytes,positions_per_byte,margin_wall_s,status,command\n")
    for r in rows:
        f.write(",".join('"%s"' % x if isinstance(x, str) and "," in x else str(x) for x in r) + "\n")
