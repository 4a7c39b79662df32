#!/usr/bin/env bash
# Session 41's queue, one heavy job at a time; rerun it to resume (each step skips what is done):
# 1. the third fresh solve of Ostle(5x5, 5, 3), class reading (ostle-5x5-fresh3/run.sh, build 7625ed3);
# 2. the bounded 5x6 meet in the middle again, alone (run.2.*: run 1 shared the cores with builds);
# 3. handover.sh's 5x6 strong by class jobs (it skips its meet in the middle, whose run.1.json exists);
# 4. handover-2.sh: Othello 4x6's exact difference.
set -uo pipefail
R=~/dfasolve-runs
# A run.sh started by hand before this queue (pid given as $1) is waited for, not doubled.
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
cd $R/ostle-5x5-fresh3 && ./run.sh >> run.log 2>&1
[ -f tables/class-5v5.ranked ] || exit 1
cd $R/bt-5x6-mitm-bounded
if [ ! -s run.2.json ]; then
    /usr/bin/time -v $R/dfasolve-7625ed3 breakthrough --width 5 --height 6 --json --csv run.2.csv --out bt-5x6-mitm.dfas \
        --max-memory 3.72 > run.2.json 2> run.2.err
fi
$R/handover.sh >> $R/handover.log 2>&1
$R/handover-2.sh >> $R/handover-2.log 2>&1
