#!/usr/bin/env bash
# Session 43's hand-over queue for the next session, one heavy job at a time; rerun it to resume
# (each step skips what is done, and the long ones resume from their files). Build 5ab7405 for
# the new runs; Othello's differences keep the build they started with (ed1addc).
# (The 5x6 meet in the middle in column order was stopped as measured: docs/engine-notes.md.)
# (Breakthrough 6x6 strong by class jobs ran 45 minutes in session 43 as a measurement of the
#  classes' growth, about 3x the bytes per pawn more: a further run would fill the disk by 15
#  pawns, so it is not queued again.)
# 1. Othello 6x6: the class universes' sweep until its budget or 60 minutes (how far it goes);
# 2. Breakthrough 5x6 by classes over the reachable positions (lever 1 on 5x6), class jobs;
# 3. Othello 4x8 (resumes after 17 discs), 8x4, 5x6 and 6x5 differences within --max-memory 20.
set -uo pipefail
R=~/dfasolve-runs
BIN=$R/dfasolve-5ab7405
OLD=$R/dfasolve-ed1addc
# A queue still running (pid given as $1) is waited for, not doubled.
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
differences() { # WxH BUILD [SECONDS]
    mkdir -p $R/othello/$1-differences && cd $R/othello/$1-differences || return
    [ -f differences-4.table ] && [ -s run.json ] && return
    local n=1; while [ -e run.$n.err ]; do n=$((n+1)); done
    timeout ${3:-86400} /usr/bin/time -v $2 othello --width ${1%x*} --height ${1#*x} --differences . \
        --json --progress --max-memory 20 > run.$n.json 2> run.$n.err && cp run.$n.json run.json
}
differences 6x6 $BIN 3600
mkdir -p $R/bt-5x6-reachable && cd $R/bt-5x6-reachable
cp -n $BIN ./dfasolve
# classes.sh passes its extra arguments on to every job (here --reachable).
cp -n /work/main/results/breakthrough/runs/classes.sh . && ./classes.sh 5 6 20 1 --reachable >> classes.log 2>&1
for size in 4x8 8x4 5x6 6x5; do differences $size $OLD; done
