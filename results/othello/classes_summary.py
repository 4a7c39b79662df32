# The per-class table of an Othello solve by class jobs: python3 results/othello/classes_summary.py RUN_DIR > NAME/record.csv
# (RUN_DIR holds class-N.err and class-N.json of each job; the first job's stderr lists the universes).
import json, re, glob, os, sys
D = sys.argv[1]
uni = {}
for l in open(f"{D}/class-24.err"):
    m = re.match(r"universe of class (\d+): ([\d,]+) positions, (\d+) DFA states", l)
    if m: uni[int(m.group(1))] = (int(m.group(2).replace(',', '')), int(m.group(3)))
print("discs,universe_positions,universe_dfa_states,wall_s,peak_rss_kib,valued_positions,value_sets_dfa_states,value_sets_bytes")
for d in sorted(uni, reverse=True):
    j = f"{D}/class-{d}.json"; e = f"{D}/class-{d}.err"
    if not os.path.exists(j) or os.path.getsize(j) == 0:
        print(f"{d},{uni[d][0]},{uni[d][1]},,,,,"); continue
    r = json.load(open(j)); t = open(e).read()
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)
    pos = sum(v["positions"] for v in r["values"]); st = sum(v["states"] for v in r["values"]); by = sum(v["bytes"] for v in r["values"])
    print(f"{d},{uni[d][0]},{uni[d][1]},{r['wall_s']:.1f},{peak},{pos},{st},{by}")
