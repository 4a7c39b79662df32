# Positions of one value from the 5x5 class tables, with counts per distance (build 0330525 and
# the positions command after it, 2026-11-27; about 18 s each beside the breadth-first pass)
T=$RUNS/ostle-5x5-class-ranked/tables
dfasolve positions $T --value win --longest --limit 2 > 5x5-positions-win-longest.txt
dfasolve positions $T --value loss --longest --limit 2 > 5x5-positions-loss-longest.txt
dfasolve positions $T --value draw --sample 3 --seed 1 > 5x5-positions-draw-sample.txt
