# In ~/dfasolve-runs/bt-6x6-classes/, beside the build 5ab7405 copied there as ./dfasolve (2026-11-28 14:15-14:48,
# by results/handover-2026-11-28-8.sh; a nice -n 19 cargo test --release ran beside it until 14:31, then niced builds):
timeout 2700 results/breakthrough/runs/classes.sh 6 6 20
# which runs, per class NAME from 0v0 up, as in runs/5x6-classes.cmd (--strong --by-classes classes --class NAME
# --checkpoint ckpt --max-memory 20). Stopped by hand at 14:48 during class 7v7 (total 14) as a measurement of the
# classes' growth: every class of up to 13 pawns is done, and 5 of the 11 of 14.
# runs/6x6-classes-partial.csv: python3 results/breakthrough/classes_summary.py ~/dfasolve-runs/bt-6x6-classes
