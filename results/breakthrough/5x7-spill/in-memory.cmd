# In $RUNS/bt-5x7-spill/, beside the build 56f2775 copied there as ./dfasolve, alone (2026-11-29 01:07-01:33,
#, which runs -16.sh), right after spilled.cmd's run:
WIDTH=5 HEIGHT=7 PATH=$PWD:$PATH results/breakthrough/runs/levers/spill.sh in-memory --max-memory 20
# which runs dfasolve breakthrough --width 5 --height 7 --json --no-save --csv in-memory.csv --progress --max-memory 20
# under /usr/bin/time -v; the solver alone was stopped (SIGTERM) once its progress showed backup ply 39 finished, ply 37
# being out of the session's reach (in-memory.err ends with the time -v report).
