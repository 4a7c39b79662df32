#!/usr/bin/env python3
"""Rebuild results/index.csv, one row per experiment with a result, from each game's own
tables (breakthrough/sizes.csv, othello/sizes.csv, ostle/solves.csv, the Nim runs), and write
its table into results/README.md between the index markers. Checks that every row's path
exists. Usage: python3 results/index.py"""
import csv, glob, json, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
COLUMNS = "game,size,mode,value,wall_s,cpu_s,peak_mib,disk_bytes,commit,command,path".split(",")


def build_of(folder):
    """The commit a folder's README names on its Build line, or its report's program."""
    readme = os.path.join(folder, "README.md")
    if os.path.exists(readme):
        found = re.search(r"^Build: ([0-9a-f]{7})", open(readme).read(), re.M)
        if found:
            return found[1]
    report = os.path.join(folder, "report.json")
    if os.path.exists(report):
        found = re.search(r"commit ([0-9a-f]{7})", json.load(open(report)).get("program", ""))
        if found:
            return found[1]
    return ""


def breakthrough():
    for r in csv.DictReader(open(os.path.join(here, "breakthrough", "sizes.csv"))):
        if not r["winner"]:
            continue
        size = f'{r["width"]}x{r["height"]}'
        mode, suffix = ("strong by classes", "classes") if "by classes" in r["mode"] else (
            ("meet in the middle", "meet") if r["mode"].startswith("meet") else ("strong", "strong"))
        folder = os.path.join(here, "breakthrough", f"{size}-{suffix}")
        yield dict(game="breakthrough", size=size, mode=mode, value=f'{r["winner"]} wins ({r["initial_value"]} for the first to move)',
                   wall_s=r["wall_s"], cpu_s=r["cpu_s"], peak_mib=r["peak_rss_mib"], disk_bytes=r["solution_bytes"],
                   commit=build_of(folder), command=r["command"], path=os.path.relpath(folder, os.path.dirname(here)))


def othello():
    for r in csv.DictReader(open(os.path.join(here, "othello", "sizes.csv"))):
        if not r["winner"]:
            continue
        size = f'{r["width"]}x{r["height"]}'
        kind = "classes" if "by classes" in r["positions"] else "differences" if "by rank" in r["positions"] else "reachable"
        folder = os.path.join(here, "othello", f"{size}-{kind}")
        yield dict(game="othello", size=size, mode=r["positions"],
                   value=f'{r["winner"]} wins ({r["initial_value"]}; final difference {r["start_difference"]})'
                   if r["winner"] != "draw" else f'draw (final difference {r["start_difference"]})',
                   wall_s=r["wall_s"], cpu_s=r["cpu_s"], peak_mib=r["peak_rss_mib"], disk_bytes=r["solution_bytes"],
                   commit=build_of(folder), command=r["command"], path=os.path.relpath(folder, os.path.dirname(here)))


def nim():
    for txt in sorted(glob.glob(os.path.join(here, "nim", "nim-*.txt"))):
        name = os.path.basename(txt)[:-4]
        heaps, tokens = re.fullmatch(r"nim-(\d+)x(\d+)", name).groups()
        times = {}
        for line in open(txt[:-4] + ".time"):
            key, _, value = line.strip().partition(": ")
            times[key] = value
        wall = sum(float(x) * 60 ** i for i, x in enumerate(reversed(times["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":"))))
        cpu = float(times["User time (seconds)"]) + float(times["System time (seconds)"])
        # The report's first line: `nim 8x31: first player loss`.
        value = open(txt).readline().split(": ", 1)[1].strip().replace("player loss", "player loses").replace("player win", "player wins")
        yield dict(game="nim", size=f"{heaps} heaps of {tokens}", mode="meet in the middle, checked against Bouton's rule",
                   value=value, wall_s=round(wall, 2), cpu_s=round(cpu, 1), peak_mib=int(times["Maximum resident set size (kbytes)"]) >> 10,
                   disk_bytes="", commit="9ff03e0", command=open(txt[:-4] + ".cmd").read().strip(), path=f"results/nim")


def curated(path):
    yield from csv.DictReader(open(os.path.join(here, path)))


rows = [*breakthrough(), *nim(), *curated("ostle/solves.csv"), *othello()]
missing = [r["path"] for r in rows if not os.path.exists(os.path.join(os.path.dirname(here), r["path"]))]
if missing:
    sys.exit(f"index.py: rows whose path does not exist: {missing}")
with open(os.path.join(here, "index.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)

table = ["| game | size | mode | value | wall | peak | record |", "|---|---|---|---|---|---|---|"]
for r in rows:
    wall = float(r["wall_s"]) if r["wall_s"] else None
    shown = "" if wall is None else (f"{wall:,.1f} s" if wall < 100 else f"{wall:,.0f} s")
    peak = f'{int(float(r["peak_mib"])):,} MiB' if r["peak_mib"] else ""
    link = os.path.relpath(os.path.join(os.path.dirname(here), r["path"]), here)
    table.append(f'| {r["game"]} | {r["size"]} | {r["mode"]} | {r["value"]} | {shown} | {peak} | [{link}]({link}) |')
readme = os.path.join(here, "README.md")
text = open(readme).read()
start, end = "<!-- index: made by index.py from index.csv -->", "<!-- end of index -->"
before, rest = text.split(start)
_, after = rest.split(end)
open(readme, "w").write(before + start + "\n" + "\n".join(table) + "\n" + end + after)
print(f"index.csv: {len(rows)} rows")
