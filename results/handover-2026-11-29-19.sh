#!/usr/bin/env bash
# Session 47, one heavy job at a time with build 56f2775, after the 4x8 run in memory that
# handover-2026-11-29-18.sh started (its pid the first argument; -18 itself was stopped before
# its 6x6 step, which this script runs last):
# 1. lever 3 on 6x6: the meet in the middle in column order for 15 minutes, its forward plies'
#    sets against the row order's (the spilled run below, same build and day);
# 2. lever 1 on 6x6: the sweep of the positions reachable from the start, by totals of pawns,
#    for 20 minutes: the per-ply frontier the class universes are made of;
# 3. lever 2 on 6x6: the spilled meet in the middle, checkpointed (rerun to resume), for as long
#    as the sessions give it.
# Probes whose .err exists are skipped.
set -uo pipefail
R=~/dfasolve-runs
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
mkdir -p $R/bt-6x6-probes && cd $R/bt-6x6-probes
cp -n $R/dfasolve-56f2775 ./dfasolve 2>/dev/null
[ -x dfasolve ] || { echo "no build: build 56f2775 and copy it to $R/dfasolve-56f2775" >&2; exit 1; }
if [ ! -e columns.err ]; then
    /usr/bin/time -v timeout 900 ./dfasolve breakthrough --width 6 --height 6 --order columns --json --no-save \
        --csv columns.csv --progress --max-memory 20 > columns.json 2> columns.err
fi
if [ ! -e sweep.err ]; then
    mkdir -p sweep && (cd sweep && /usr/bin/time -v timeout 1200 ../dfasolve breakthrough --width 6 --height 6 \
        --strong --by-classes classes --reachable --class 0v0 --progress --no-save --max-memory 20) \
        > sweep.json 2> sweep.err
fi
mkdir -p $R/bt-6x6-spill/spill && cd $R/bt-6x6-spill
cp -n $R/dfasolve-56f2775 ./dfasolve 2>/dev/null
cp /work/main/results/breakthrough/runs/levers/spill.sh .
[ -s spilled.json ] && exit 0
n=1; while [ -e spilled.$n.err ]; do n=$((n+1)); done
PATH=$PWD:$PATH WIDTH=6 HEIGHT=6 ./spill.sh spilled.$n --max-memory 20 --spill spill --checkpoint ckpt \
    && cp spilled.$n.json spilled.json
