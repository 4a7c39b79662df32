# Build f290a48, 2026-11-28 10:23-10:26, in ~/dfasolve-runs/othello/8x8-plies-explicit/ (by the queue of that day), alone but for nice -n 19 builds and tests; it stops itself before ply 13 (exit status 1: the budget), after ply 12.
/usr/bin/time -v dfasolve othello --width 8 --height 8 --plies 16 --explicit --json --max-memory 20 > run.json 2> run.err
