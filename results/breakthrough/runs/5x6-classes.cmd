# In ~/dfasolve-runs/bt-5x6-classes/, beside the build ed1addc copied there as ./dfasolve (2026-11-28,
# started 11:41 by ~/dfasolve-runs/handover.sh, resumed 12:05 by handover-6.sh = results/handover-2026-11-28-6.sh):
results/breakthrough/runs/classes.sh 5 6 20
# which runs, per class NAME from 0v0 to 10v10:
#   DFASOLVE_TRACE=1 /usr/bin/time -v ./dfasolve breakthrough --width 5 --height 6 --strong --by-classes classes --class NAME --checkpoint ckpt --max-memory 20 --json --no-save > class-NAME.N.json 2> class-NAME.N.err
# runs/5x6-classes/class-NAME.N.json are the reports; class-NAME.N.time the /usr/bin/time -v part of each .err.
# runs/5x6-classes.csv: python3 results/breakthrough/classes_summary.py ~/dfasolve-runs/bt-5x6-classes
