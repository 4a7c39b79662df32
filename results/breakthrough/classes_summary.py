#!/usr/bin/env python3
"""The per-class table of a solve by class jobs (classes.sh), one row per class in the
order solved, from each job's class-NAME.N.json (report) and class-NAME.N.err (stderr ending in
/usr/bin/time -v's report).

Usage: python3 results/breakthrough/classes_summary.py RUN_DIR > NAME/record.csv

A class stopped and resumed has several attempts: their wall and CPU are added, the peak is
the largest. Attempts that did not finish are counted in `attempts` and their time kept."""
import glob, json, os, re, sys

run = sys.argv[1]
classes = {}
for err in glob.glob(os.path.join(run, "class-*.err")):
    m = re.fullmatch(r"class-(.+)\.(\d+)\.err", os.path.basename(err))
    if not m:
        continue
    name, attempt = m.group(1), int(m.group(2))
    text = open(err, errors="replace").read()
    times = {k: float(v) for k, v in re.findall(r"(User|System) time \(seconds\): ([\d.]+)", text)}
    clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", text)
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    wall = 0.0
    if clock:
        for part in clock.group(1).split(":"):
            wall = wall * 60 + float(part)
    c = classes.setdefault(name, {"attempts": 0, "wall": 0.0, "cpu": 0.0, "peak": 0, "report": None, "when": 0})
    c["attempts"] += 1
    c["wall"] += wall
    c["cpu"] += sum(times.values())
    c["peak"] = max(c["peak"], int(peak.group(1)) if peak else 0)
    c["when"] = max(c["when"], os.path.getmtime(err))
    report = err[:-4] + ".json"
    if os.path.exists(report) and os.path.getsize(report) > 0:
        c["report"] = json.load(open(report))

print("class,pawns,attempts,wall_s,cpu_s,peak_rss_kib,positions,value_sets_dfa_states,value_sets_bytes,finished")
for name, c in sorted(classes.items(), key=lambda kv: kv[1]["when"]):
    w, b = name.split("v")
    values = c["report"]["values"] if c["report"] else []
    positions = sum(v["positions"] for v in values)
    states = sum(v["states"] for v in values)
    size = sum(v["bytes"] for v in values)
    print(f"{name},{int(w) + int(b)},{c['attempts']},{c['wall']:.1f},{c['cpu']:.1f},{c['peak']},"
          f"{positions},{states},{size},{'yes' if c['report'] else 'no'}")
