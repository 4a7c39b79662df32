# 2026-11-28, build 517f046, in ~/dfasolve-runs/ostle-5x5-fresh beside the DFA solve of the 4 v 4 class;
# writes 5x5-fresh2-check-1m.json (report) and 5x5-fresh2-check-1m.err (stderr and /usr/bin/time -v).
/usr/bin/time -v dfasolve check tables --sample 1000000 --json > check-1m.json 2> check-1m.err
