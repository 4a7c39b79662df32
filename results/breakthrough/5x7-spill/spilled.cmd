# In $RUNS/bt-5x7-spill/, beside the build 56f2775 copied there as ./dfasolve, alone (2026-11-29 00:15-01:07,
#, which runs -16.sh):
WIDTH=5 HEIGHT=7 PATH=$PWD:$PATH results/breakthrough/runs/levers/spill.sh spilled --max-memory 20 --spill spill
# which runs dfasolve breakthrough --width 5 --height 7 --json --no-save --csv spilled.csv --progress --max-memory 20 --spill spill
# under /usr/bin/time -v, stopped (SIGTERM) once its progress showed backup ply 37 finished; the stop also ended
# /usr/bin/time, so there is no time -v report: the wall and peaks are the CLI's record (spilled.partial.csv) and
# spilled.anon. stopped-1.{err,partial.csv}: the same command started at 23:53, stopped by hand after backup ply 43
# (489 s) to measure older builds on the idle machine.
