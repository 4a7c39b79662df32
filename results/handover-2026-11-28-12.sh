#!/usr/bin/env bash
# Session 45's queue, one heavy job at a time; rerun it to resume (each step skips what is done).
# The machine came back without ~/dfasolve-runs, so both steps of handover-2026-11-28-11.sh
# start again from nothing, with build 56f2775 (copied to ~/dfasolve-runs/dfasolve-56f2775):
# 1. Breakthrough 5x6 by classes over the reachable positions (lever 1 on 5x6), one class job
#    at a time like the 1.47 h solve by classes of every board string it is set against;
#    classes.sh skips the classes whose files exist and resumes a stopped one from its
#    checkpoints;
# 2. lever 2 on 4x8: the meet in the middle with --spill, against its run in memory of
#    2026-11-26 (3,173 s over two runs, 7.1 GiB peak); with checkpoints, so a stopped run
#    resumes.
set -uo pipefail
R=~/dfasolve-runs
BUILD=$R/dfasolve-56f2775
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
mkdir -p $R/bt-5x6-reachable && cd $R/bt-5x6-reachable
cp -n $BUILD ./dfasolve
cp -n /work/main/results/breakthrough/runs/classes.sh . && ./classes.sh 5 6 20 1 --reachable >> classes.log 2>&1
mkdir -p $R/bt-4x8-spill/spill && cd $R/bt-4x8-spill
cp -n $BUILD ./dfasolve
cp /work/main/results/breakthrough/runs/levers/spill.sh .
n=1; while [ -e spilled.$n.err ]; do n=$((n+1)); done
[ -s spilled.json ] || { PATH=$PWD:$PATH WIDTH=4 HEIGHT=8 ./spill.sh spilled.$n --max-memory 20 --spill spill \
    --checkpoint ckpt && cp spilled.$n.json spilled.json; }
