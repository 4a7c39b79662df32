# In ~/dfasolve-runs/bt-levers/ by results/handover-2026-11-28-8.sh (build 5ab7405, 2026-11-28 13:55-14:00,
# one after the other, alone), for SIZE in 5x5 4x6:
/usr/bin/time -v dfasolve breakthrough --width W --height H --by-classes SIZE-strong --json --no-save --progress > SIZE-strong.json 2> SIZE-strong.err
/usr/bin/time -v dfasolve breakthrough --width W --height H --by-classes SIZE-reachable --reachable --json --no-save --progress > SIZE-reachable.json 2> SIZE-reachable.err
# Files: 5x5-strong.json 5x5-strong.time 5x5-reachable.json 5x5-reachable.time 5x5-reachable.progress
# 4x6-strong.json 4x6-strong.time 4x6-reachable.json 4x6-reachable.time 4x6-reachable.progress
# Here: the reports without their per-step tables (steps_left_out counts them), the /usr/bin/time -v
# part of each .err as .time, and the reachable runs' sweep and universe lines as .progress.
