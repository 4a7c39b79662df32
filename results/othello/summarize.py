#!/usr/bin/env python3
"""Build results/othello/sizes.csv from the folders WxH-reachable/ (the plain game over the
positions reachable from the start, and the start's exact disc difference by `--margin`: its
command.txt, report.json, time.txt and margin-report.json, written by sweep.sh); of boards
solved by class jobs, WxH-classes/ (record.csv and each job's files in classes/, written by its
classes.sh); and the exact differences by rank (`othello --differences`, WxH-differences/:
command.txt, report.json, log.txt, files.txt), which give a by-classes board its start's
difference, or a board of their own its row; and the boards not attempted (not-attempted/)."""
import csv, glob, json, os, re

here = os.path.dirname(os.path.abspath(__file__))


def cpu_seconds(folder):
    """User + system seconds from FOLDER/time.txt (`/usr/bin/time -v`), or ''."""
    path = os.path.join(folder, "time.txt")
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
    the CPU and the peak of its `/usr/bin/time -v` lines in NAME-differences/log.txt."""
    folder = os.path.join(here, name + "-differences")
    js = os.path.join(folder, "report.json")
    if not os.path.exists(js):
        return None
    d = json.load(open(js))
    err = open(os.path.join(folder, "log.txt")).read()
    d["cpu_s"] = round(sum(map(float, re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", err))), 1)
    d["peak_mib"] = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1)) >> 10
    d["cmd"] = open(os.path.join(folder, "command.txt")).read().strip().splitlines()[-1]
    d["wall_s"] = round(d["wall_s"], 1)
    d["cmd"] = d["cmd"].replace("/usr/bin/time -v ", "")
    # Builds before 90dca0d do not report the universes' bytes: files.txt lists the run
    # directory's universe files and tables (bytes, name).
    listing = os.path.join(folder, "files.txt")
    if d.get("universe_bytes") is None and os.path.exists(listing):
        d["universe_bytes"] = sum(int(line.split()[0]) for line in open(listing) if "universe-" in line)
    return d


rows = []
for cmd_file in glob.glob(os.path.join(here, "*-reachable", "command.txt")):
    folder = os.path.dirname(cmd_file)
    name = os.path.basename(folder)[: -len("-reachable")]
    w, h = map(int, name.split("x"))
    js, st = os.path.join(folder, "report.json"), os.path.join(folder, "status.txt")
    margin = os.path.join(folder, "margin-report.json")
    diff = json.load(open(margin))["start_difference"] if os.path.exists(margin) else ""
    margin_wall = round(json.load(open(margin))["wall_s"], 1) if os.path.exists(margin) else ""
    cmd = open(cmd_file).read().strip()
    if os.path.exists(js):
        r = json.load(open(js))
        rows.append([w, h, "reachable from the start", r["winner"].split(" (")[0], r["initial_value"], diff,
                     round(r["wall_s"], 2), cpu_seconds(folder), (r["peak_rss_bytes"] or 0) >> 20,
                     r["largest_dfa"]["states"], r["positions_solved"], r["solution_bytes"],
                     round(r["positions_per_byte"], 2), margin_wall, "solved", cmd])
    elif os.path.exists(st):
        rows.append([w, h, "reachable from the start", "", "", diff, "", "", "", "", "", "", "", margin_wall,
                     open(st).read().strip(), cmd])
for st in glob.glob(os.path.join(here, "not-attempted", "*.status.txt")):
    name = os.path.basename(st)[: -len(".status.txt")]
    w, h = map(int, name.split("x"))
    cmd = open(os.path.join(here, "not-attempted", name + ".command.txt")).read().strip()
    rows.append([w, h, "reachable from the start", "", "", "", "", "", "", "", "", "", "", "", open(st).read().strip(), cmd])


def cpu_of_err(path):
    """User + system seconds from a job's stderr ending in `/usr/bin/time -v`'s report."""
    times = re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", open(path).read())
    return sum(map(float, times))


# Boards solved by class jobs (WxH-classes/classes.sh): its record.csv is the per-class table
# (classes_summary.py), classes/ each job's stderr and report and the start's query.
for table in glob.glob(os.path.join(here, "*-classes", "record.csv")):
    name = os.path.basename(os.path.dirname(table))[: -len("-classes")]
    w, h = map(int, name.split("x"))
    jobs = os.path.join(here, name + "-classes", "classes")
    classes = list(csv.DictReader(open(table)))
    query = open(os.path.join(jobs, "query-start.txt")).read()
    value = re.search(r"value for the first player \(to move\): (.+)", query).group(1)
    winner = {"win": "first player", "loss": "second player", "draw": "draw"}[value.split()[0]]
    errs = glob.glob(os.path.join(jobs, "class-*.err"))
    positions = sum(int(c["valued_positions"]) for c in classes)
    solution = sum(int(c["value_sets_bytes"]) for c in classes)
    cmd = "results/othello/%s-classes/classes.sh (one dfasolve othello --reachable --by-classes job per class)" % name
    # The start's difference: from the differences by rank.
    m = differences(name)
    rows.append([w, h, "reachable from the start, by classes of discs", winner, value,
                 m["start_difference"] if m else "",
                 round(sum(float(c["wall_s"]) for c in classes), 1), round(sum(cpu_of_err(e) for e in errs), 1),
                 max(int(c["peak_rss_kib"]) for c in classes) >> 10,
                 "", positions, solution,
                 round(positions / solution, 2), m["wall_s"] if m else "",
                 "solved" if m else "solved; exact margin not yet solved", cmd])

# Boards whose only run is the differences by rank.
solved = {(r[0], r[1]) for r in rows}
for js in glob.glob(os.path.join(here, "*-differences", "report.json")):
    name = os.path.basename(os.path.dirname(js))[: -len("-differences")]
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
