DFASOLVE_TRACE=1 /usr/bin/time -v timeout 150m dfasolve ostle --pieces 4 --lose-at 3 --json --csv run.csv --checkpoint ckpt --out ostle-4v4.dfas --max-memory 20
# build da6ae6d (as the first two runs), 2026-11-25 19:10-21:36, resumed from ckpt/ at iteration 15; the fixpoint came at iteration 111 (8,626 s),
# the solution was saved (ostle-4v4.dfas, 14.7 GB), and the run was stopped by hand (SIGTERM, exit 143) in the census of its report, whose
# breadth-first levels (60 min by default) would not have finished before the timeout. Beside it: compiles, tests, one .ci/run (20:38-20:51),
# the 4x4 K4 T2 runs (20:08-20:28), the 4 v 4 class-reading census (20:30-20:37).
dfasolve query ostle-4v4.dfas "bbbb./...../..o../...../wwww. -"   # ostle-5x5-4v4-final.query.txt
dfasolve check ostle-4v4.dfas --sample 200   # ostle-5x5-4v4-final.check.{txt,time}, 21:38-21:40, alone
