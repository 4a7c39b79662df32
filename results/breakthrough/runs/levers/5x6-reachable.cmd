# In ~/dfasolve-runs/bt-5x6-reachable/, beside the build 56f2775 copied there as ./dfasolve (2026-11-28 19:38-21:44,
# by results/handover-2026-11-28-12.sh; beside it: nice -n 19 cargo builds, clippy, doc and short tests until about 20:40):
results/breakthrough/runs/classes.sh 5 6 20 1 --reachable
# which runs, per class NAME from 0v0 to 10v10 (the first job also sweeps the reachable positions and saves each
# class's universe in classes/):
#   DFASOLVE_TRACE=1 /usr/bin/time -v ./dfasolve breakthrough --width 5 --height 6 --strong --by-classes classes --class NAME --checkpoint ckpt --max-memory 20 --json --no-save --reachable > class-NAME.N.json 2> class-NAME.N.err
# levers/5x6-reachable/class-NAME.N.json are the reports; class-NAME.N.time the /usr/bin/time -v part of each .err.
# levers/5x6-reachable.csv: python3 results/breakthrough/classes_summary.py ~/dfasolve-runs/bt-5x6-reachable
# levers/5x6-reachable.record.{csv,svg}: python3 results/breakthrough/classes_record.py ~/dfasolve-runs/bt-5x6-reachable > levers/5x6-reachable.record.csv && dfasolve plot levers/5x6-reachable.record.csv   (plot: build da97444)
# levers/5x6-reachable.query-start.{txt,time}: cd ~/dfasolve-runs/bt-5x6-reachable && /usr/bin/time -v ./dfasolve query classes 'xxxxx/xxxxx/...../...../ooooo/ooooo first'   (the same text as runs/5x6-query-start.txt, the solve by classes of every board string)
# levers/5x6-reachable.check.{json,time}: cd ~/dfasolve-runs/bt-5x6-reachable && /usr/bin/time -v ./dfasolve check classes --sample 300 --json   (beside the 10x4 solve of handover-2026-11-28-13.sh)
