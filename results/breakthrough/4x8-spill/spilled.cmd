# In $RUNS/bt-4x8-spill/, beside the build 56f2775 copied there as ./dfasolve:
WIDTH=4 HEIGHT=8 PATH=$PWD:$PATH results/breakthrough/runs/levers/spill.sh spilled.N --max-memory 20 --spill spill --checkpoint ckpt
# which runs dfasolve breakthrough --width 4 --height 8 --json --no-save --csv spilled.N.csv --progress --max-memory 20 --spill spill --checkpoint ckpt
# under /usr/bin/time -v. Attempt 1 (2026-11-28 21:54-22:5x) died with the machine's
# session after backup ply 25 (its last checkpoint, 2,854 s; spilled.1.err has its progress lines only, spilled.1.partial.csv
# its record to there); beside it a niced .ci/run from 22:00. Attempt 2 (23:08-23:52)
# resumed from ckpt/ at backup ply 24 and finished: spilled.2.{err,csv,json,anon}; beside it for its first minutes a niced
# cargo test --release --lib plot:: build.
