# In $RUNS/bt-4x8-spill/, beside the build 56f2775 copied there as ./dfasolve:
WIDTH=4 HEIGHT=8 PATH=$PWD:$PATH results/breakthrough/runs/levers/spill.sh in-memory.N --max-memory 20 --checkpoint ckpt-in-memory
# which runs dfasolve breakthrough --width 4 --height 8 --json --no-save --csv in-memory.N.csv --progress --max-memory 20 --checkpoint ckpt-in-memory
# under /usr/bin/time -v. Attempt 1 (2026-11-29 02:20-03:43) ran from scratch to the
# end, alone; a 3-second niced probe of the 6x6 commands and a 9-second niced 4x5 sweep ran beside it once. The machine
# ran at the speed of the spilled attempts' (forward ply 81 at 13.15 s in both): in-memory.1.{err,csv,json,anon}.
