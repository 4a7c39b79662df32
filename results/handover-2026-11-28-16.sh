#!/usr/bin/env bash
# For session 46: lever 2 on 5x7 as a pair of one build (56f2775), after handover-2026-11-28-15.sh
# (pass its PID to wait for it), one heavy job at a time. The 5x7 meet in the middle, spilled and
# then in memory, each stopped once its backup has finished ply 37: where the record of
# 2026-11-26 (runs/5x7-mitm.*) stopped, so that the two runs cover the same plies. No
# checkpoints: a run cut short by the session's end starts again from nothing (23 minutes).
set -uo pipefail
R=~/dfasolve-runs
cut='backup   37 second new_loss'
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
mkdir -p $R/bt-5x7-spill/spill && cd $R/bt-5x7-spill
cp -n $R/dfasolve-56f2775 ./dfasolve 2>/dev/null
[ -x dfasolve ] || { echo "no build: build 56f2775 and copy it to $R/dfasolve-56f2775" >&2; exit 1; }
cp /work/main/results/breakthrough/runs/levers/spill.sh .
for run in "spilled --spill spill" "in-memory"; do
    set -- $run
    name=$1
    shift
    grep -q "$cut" $name.err 2>/dev/null && continue
    PATH=$PWD:$PATH WIDTH=5 HEIGHT=7 ./spill.sh $name --max-memory 20 "$@" &
    job=$!
    until grep -q "$cut" $name.err 2>/dev/null; do
        kill -0 $job 2>/dev/null || break
        sleep 2
    done
    # The solver alone (its command line begins with its name), so that /usr/bin/time reports it.
    pkill -TERM -f "^dfasolve breakthrough --width 5 --height 7 --json --no-save --csv $name.csv"
    wait $job
done
