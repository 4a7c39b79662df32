# The breadth-first levels from the 5x5 start over the class tables, runs 12-15 (each resumed
# from the last save of the one before, in $RUNS/ostle-5x5-class-ranked/):
#   5x5-levels-run12.err, 5x5-levels-run13-partial.err, 5x5-levels-run14.err,
#   5x5-levels-run15.err (stderr), 5x5-levels.json (run 15's report: every level).
./dfasolve-levels3 explicit ostle --rule class --tables tables --json --max-memory 20 --check-sample 0 --no-census --levels --long > run15.json 2> run15.err
