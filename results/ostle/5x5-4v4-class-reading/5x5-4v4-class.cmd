# The 4 v 4 class of Ostle 5x5 in the class reading, solved with DFAs (run in
# $RUNS/ostle-4v4-class-dfa/ by its run.sh, build a167d0d), in two runs: run 1
# (2026-11-28 00:23, killed from outside after iteration 21; ostle-5x5-4v4-class.run1.partial.csv)
# and run 2 (03:08-05:06, the same command, resumed from ckpt/; ostle-5x5-4v4-class.csv, and
# ostle-5x5-4v4-class.run2.err: its stderr and /usr/bin/time -v).
./dfasolve-a167d0d ostle --pieces 4 --lose-at 3 --rule class --long --json --csv run.N.csv \
    --checkpoint ckpt --out ostle-4v4-class.dfas --max-memory 20 --progress
# The cross-check against the explicit class tables (2026-11-28, build e3ddb3c, run by
# resumed; first started with --sample 1000000 and stopped, see
# ranked/README.md): ostle-5x5-4v4-class.check-against.json and .err
dfasolve check $RUNS/ostle-5x5-fresh/tables --against ostle-4v4-class.dfas --sample 5000 --json
# The cross-check with a million states on each side (2026-11-28 06:30-06:38, build f56d094, run by
# tables-4v4/ holds a hard link to the 4 v 4 class file only):
# ostle-5x5-4v4-class.check-against-1m.json and .err
dfasolve check $RUNS/ostle-5x5-fresh/tables-4v4 --against ostle-4v4-class.dfas --sample 1000000 --json
