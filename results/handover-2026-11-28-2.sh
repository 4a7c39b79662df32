#!/usr/bin/env bash
# After handover.sh's queue: the exact difference of Othello 4x6's start (build b0e204f), by
# thresholds solved class by class over the universes the plain solve made (thr/0 is that
# solve). Rerun to resume.
set -uo pipefail
while pgrep -f "handover.sh" > /dev/null; do sleep 60; done
cd ~/dfasolve-runs/othello/4x6-margin
./margin-by-classes.sh 4 6 ~/dfasolve-runs/othello/4x6-classes/classes '..../..../.ox./.xo./..../.... black' 4 > margin.log 2>&1
