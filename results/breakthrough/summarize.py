#!/usr/bin/env python3
"""Build results/breakthrough/sizes.csv from the folders WxH-strong/ (strong solves, written by
sweep.sh) and WxH-meet/ (meet-in-the-middle solves of depth 2): their command.txt, report.json,
status.txt and note.txt.

The committed sizes.csv has hand-written rows beside these (4x8 by meet in the middle in two
runs, 5x7 stopped): compare before replacing it."""
import csv, glob, json, os, re

here = os.path.dirname(os.path.abspath(__file__))
def cpu_seconds(folder):
    """User + system seconds from FOLDER/time.txt (`/usr/bin/time -v`), or '' if not measured."""
    path = os.path.join(folder, "time.txt")
    if not os.path.exists(path):
        return ""
    times = {}
    for line in open(path):
        key, _, value = line.strip().partition(": ")
        if key in ("User time (seconds)", "System time (seconds)"):
            times[key] = float(value)
    return round(sum(times.values()), 1) if len(times) == 2 else ""


COLUMNS = ("width,height,mode,winner,initial_value,wall_s,cpu_s,peak_rss_mib,largest_step_dfa_states,"
           "largest_step_dfa_bytes,positions_solved,positions_in_sets,solution_bytes,positions_per_byte,status,"
           "command").split(",")
rows = []
for cmd_file in glob.glob(os.path.join(here, "*", "command.txt")):
    folder = os.path.dirname(cmd_file)
    # Only whole solves make rows here; the other experiments (class jobs, levers) have their
    # own records.
    found = re.fullmatch(r"(\d+)x(\d+)-(strong|meet)", os.path.basename(folder))
    if not found:
        continue
    w, h, mitm = int(found[1]), int(found[2]), found[3] == "meet"
    # A strong solve values every position; meet in the middle, those reachable from the start.
    mode = "meet in the middle (depth 2): reachable positions" if mitm else "strong: every position"
    cmd = open(cmd_file).read().strip()
    js = os.path.join(folder, "report.json")
    st = os.path.join(folder, "status.txt")
    note = os.path.join(folder, "note.txt")
    # note.txt: what a reader of the row must know (e.g. a resumed run's wall time).
    status = "solved" + ("; " + open(note).read().strip() if os.path.exists(note) else "")
    if os.path.exists(js):
        r = json.load(open(js))
        # positions_solved: every position a strong solve values, the positions reachable from
        # the start a meet in the middle values. A meet-in-the-middle record written before
        # reports said which (no positions_solved_are) counted its backward sets' unreachable
        # positions too: that figure is kept as positions_in_sets only.
        in_sets = r.get("positions_in_sets", r["positions_solved"])
        solved, per_byte = r["positions_solved"], round(r["positions_per_byte"], 1)
        if mitm and "positions_solved_are" not in r:
            solved, per_byte = "", ""
            status += "; positions_solved not recorded (the run's report counted the backward sets' unreachable positions)"
        rows.append([w, h, mode, r["winner"].split(" (")[0], r["initial_value"], round(r["wall_s"], 2), cpu_seconds(folder),
                     (r["peak_rss_bytes"] or 0) >> 20, r["largest_dfa"]["states"], r["largest_dfa"]["bytes"],
                     solved, in_sets, r["solution_bytes"], per_byte, status, cmd])
    elif os.path.exists(st):
        rows.append([w, h, mode, "", "", "", "", "", "", "", "", "", "", "", open(st).read().strip(), cmd])
    # override.json: the row's figures where one report does not hold them (a run
    # resumed in a second process, whose figures are the two runs' sums; a row re-measured by a
    # later record, named in its status), by column name.
    override = os.path.join(folder, "override.json")
    if os.path.exists(override) and rows and rows[-1][:3] == [w, h, mode]:
        for column, value in json.load(open(override)).items():
            rows[-1][COLUMNS.index(column)] = value
# Sizes not attempted as a whole strong solve: not-attempted/WxH.{status,command}.txt.
for st in glob.glob(os.path.join(here, "not-attempted", "*.status.txt")):
    size = os.path.basename(st)[: -len(".status.txt")]
    w, h = map(int, size.split("x"))
    cmd = open(os.path.join(here, "not-attempted", size + ".command.txt")).read().strip()
    rows.append([w, h, "strong: every position", "", "", "", "", "", "", "", "", "", "", "", open(st).read().strip(), cmd])
# A solve by class jobs has its record per class (WxH-classes/record.csv, made by
# classes_summary.py): its row was written from that record and is kept as it is.
with open(os.path.join(here, "sizes.csv")) as f:
    for r in csv.reader(f):
        if len(r) > 2 and "by classes" in r[2]:
            rows.append([int(r[0]), int(r[1])] + r[2:])
rows.sort(key=lambda r: (r[0] * r[1], r[0], r[2].startswith("meet"), "by classes" in r[2]))
with open(os.path.join(here, "sizes.csv"), "w") as f:
    f.write(",".join(COLUMNS) + "\n")
    for r in rows:
        f.write(",".join('"%s"' % x if isinstance(x, str) and "," in x else str(x) for x in r) + "\n")
