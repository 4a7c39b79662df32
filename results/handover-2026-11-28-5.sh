#!/usr/bin/env bash
# Session 42's queue, one heavy job at a time; rerun it to resume (each step skips what is done):
# 1. the third fresh solve of Ostle(5x5, 5, 3), class reading (ostle-5x5-fresh3/run.sh, build 7625ed3);
# 2. the bounded 5x6 meet in the middle again, alone (run.2.*);
# 3. Othello (build f290a48): 4x6's exact differences by rank over the universes and class files
#    of its solve by classes (hard links); 8x8's positions per ply by hash sets; 6x4's and 5x5's
#    differences from scratch;
# 4. handover.sh's 5x6 strong by class jobs (it skips what is done).
set -uo pipefail
R=~/dfasolve-runs
BIN=$R/dfasolve-f290a48
# A run.sh started before this queue (pid given as $1) is waited for, not doubled.
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
cd $R/ostle-5x5-fresh3 && ./run.sh >> run.log 2>&1
[ -f tables/class-5v5.ranked ] || exit 1
cd $R/bt-5x6-mitm-bounded
if [ ! -s run.2.json ]; then
    /usr/bin/time -v $R/dfasolve-7625ed3 breakthrough --width 5 --height 6 --json --csv run.2.csv --out bt-5x6-mitm.dfas \
        --max-memory 3.72 > run.2.json 2> run.2.err
fi
differences() { # WxH
    cd $R/othello/$1-differences || return
    [ -f differences-4.table ] && [ -s run.json ] && return
    local n=1; while [ -e run.$n.err ]; do n=$((n+1)); done
    /usr/bin/time -v $BIN othello --width ${1%x*} --height ${1#*x} --differences . \
        --json --progress --max-memory 20 > run.$n.json 2> run.$n.err && cp run.$n.json run.json
}
differences 4x6
cd $R/othello/8x8-plies-explicit
[ -s run.json ] || /usr/bin/time -v $BIN othello --width 8 --height 8 --plies 16 --explicit --json --max-memory 20 \
    > run.json 2> run.err
differences 6x4
differences 5x5
$R/handover.sh >> $R/handover.log 2>&1
