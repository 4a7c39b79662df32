# Lever 1 on 6x6: the sweep of the positions reachable from the start (by totals of pawns, breadth first) that the
# solve by classes over reachable positions starts with, stopped after 20 minutes. In $RUNS/bt-6x6-probes/sweep/,
# beside the build 56f2775 at ../dfasolve (2026-11-29 03:58-04:18), alone:
/usr/bin/time -v timeout 1200 ../dfasolve breakthrough --width 6 --height 6 --strong --by-classes classes --reachable --class 0v0 --progress --no-save --max-memory 20
# Stopped by the timeout (exit 124) in ply 18 of the sweep, before any total of pawns was complete (so no class universe
# was written): sweep.err has its progress lines (new positions and DFA states per ply) and /usr/bin/time's report.
