#!/usr/bin/env python3
"""Per-ply backup times of meet-in-the-middle records side by side.

    python3 results/breakthrough/ply_times.py A.csv B.csv [...]

Each argument is a run's CSV record (`--csv`, or a stopped run's `.partial.csv`); several files
joined by '+' are one run in attempts (a resumed run's record starts again from its first ply).
Prints, per backup ply, each run's seconds for the ply (from the previous ply's last row to its
own) and the larger of its new sets' states, then the ratio of the other runs to the first on
the plies all of them have.
"""
import csv
import sys


def read(spec):
    """{ply: (seconds, largest new set's states)} of one run, its attempts in order."""
    done = {}
    for path in spec.split("+"):
        end, states, order = {}, {}, []
        previous = 0.0
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row["phase"] != "Backup":
                    # The first ply's time starts where the forward plies ended.
                    previous = float(row["elapsed_s"])
                    continue
                ply = int(row["step"])
                if ply not in end:
                    order.append(ply)
                end[ply] = float(row["elapsed_s"])
                if row["set"] in ("new_win", "new_loss"):
                    states[ply] = max(states.get(ply, 0), int(row["states"]))
        for ply in order:
            if ply not in done:
                # A resumed attempt's first plies are read from checkpoints: kept from the attempt
                # that made them.
                done[ply] = (end[ply] - previous, states.get(ply, 0))
            previous = end[ply]
    return done


def main(specs):
    runs = [read(spec) for spec in specs]
    plies = sorted(set().union(*runs), reverse=True)
    print("ply," + ",".join(f"{s} s,{s} states" for s in specs))
    for ply in plies:
        cells = []
        for run in runs:
            seconds, states = run.get(ply, (None, None))
            cells += ["" if seconds is None else f"{seconds:.1f}", "" if states is None else str(states)]
        print(f"{ply}," + ",".join(cells))
    common = [p for p in plies if all(p in run for run in runs)]
    if not common:
        return
    base = sum(runs[0][p][0] for p in common)
    for spec, run in zip(specs[1:], runs[1:]):
        total = sum(run[p][0] for p in common)
        print(f"# plies {common[0]}-{common[-1]}: {spec} {total:.0f} s against {base:.0f} s: {total / base:.2f}x",
              file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1:])
