#!/usr/bin/env bash
# Session 44's hand-over queue, one heavy job at a time; rerun it to resume (each step skips
# what is done).
# 1. Breakthrough 5x6 by classes over the reachable positions (lever 1 on 5x6), class jobs, with
#    the build already in that directory (5ab7405, put there by handover-10.sh); classes.sh
#    skips the classes whose files exist and resumes a stopped one from its checkpoints;
# 2. lever 2 on 4x8 (build 539b0d3): the meet in the middle with --spill, against its run in
#    memory of 2026-11-26 (3,173 s over two runs, 7.1 GiB peak), whose running sets are larger
#    than 5x6's; with checkpoints, so a stopped run resumes.
set -uo pipefail
R=~/dfasolve-runs
# A queue still running (pid given as $1) is waited for, not doubled.
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
mkdir -p $R/bt-5x6-reachable && cd $R/bt-5x6-reachable
cp -n $R/dfasolve-5ab7405 ./dfasolve
cp -n /work/main/results/breakthrough/runs/classes.sh . && ./classes.sh 5 6 20 1 --reachable >> classes.log 2>&1
mkdir -p $R/bt-4x8-spill/spill && cd $R/bt-4x8-spill
cp -n $R/dfasolve-539b0d3 ./dfasolve
cp /work/main/results/breakthrough/runs/levers/spill.sh .
n=1; while [ -e spilled.$n.err ]; do n=$((n+1)); done
[ -s spilled.json ] || { PATH=$PWD:$PATH WIDTH=4 HEIGHT=8 ./spill.sh spilled.$n --max-memory 20 --spill spill \
    --checkpoint ckpt && cp spilled.$n.json spilled.json; }
