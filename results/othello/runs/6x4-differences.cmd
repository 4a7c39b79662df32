# Build f290a48, 2026-11-28 10:26-10:44, in ~/dfasolve-runs/othello/6x4-differences/ (by the queue of that day), from scratch (the universes made first); beside it nice -n 19 builds and tests and, for 32 s, the niced check of 4x6. Files here: run.1.json and run.1.err renamed.
/usr/bin/time -v dfasolve othello --width 6 --height 4 --differences . --json --progress --max-memory 20
