# In $RUNS/bt-5x7-spill/, beside the build 56f2775 copied there as ./dfasolve, alone (2026-11-28 23:53 - 2026-11-29 00:01,
#; the first start of spilled.cmd's run):
WIDTH=5 HEIGHT=7 PATH=$PWD:$PATH results/breakthrough/runs/levers/spill.sh spilled --max-memory 20 --spill spill
# stopped by hand (its queue killed, then the solver) after backup ply 43 at 489 s, to time older builds on the idle
# machine; its .err and .partial.csv were renamed stopped-1.*. No /usr/bin/time report (the stop ended it too).
