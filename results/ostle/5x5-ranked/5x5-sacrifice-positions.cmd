# Run in $RUNS/ostle-5x5-class-ranked (tables of the three 5x5 classes, class reading),
# build 65b171b, 2026-11-27 05:45-07:40, beside the breadth-first pass:
/usr/bin/time -v ./dfasolve-sac puzzles tables --sacrifice --no-forbidden-move --limit 12 --json > sacrifice-positions.json 2> sacrifice-positions.err
# Committed as 5x5-sacrifice-positions.json and 5x5-sacrifice-positions.err.
