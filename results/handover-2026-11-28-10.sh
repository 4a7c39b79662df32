#!/usr/bin/env bash
# Session 44's queue, one heavy job at a time; rerun it to resume (each step skips what is done,
# and the long ones resume from their files). It takes over from handover-9.sh after its first
# step (Othello 6x6's sweep, whose pid is $1).
# 1. Othello 8x4, 5x6 and 6x5: the class universes' sweep for 20 minutes each (their growth per
#    disc), then 4x8 resumed for 20 minutes;
# 2. Breakthrough 5x6 by classes over the reachable positions (lever 1 on 5x6), class jobs.
set -uo pipefail
R=~/dfasolve-runs
BIN=$R/dfasolve-5ab7405
OLD=$R/dfasolve-ed1addc
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
differences() { # WxH BUILD [SECONDS]
    mkdir -p $R/othello/$1-differences && cd $R/othello/$1-differences || return
    [ -f differences-4.table ] && [ -s run.json ] && return
    local n=1; while [ -e run.$n.err ]; do n=$((n+1)); done
    timeout ${3:-86400} /usr/bin/time -v $2 othello --width ${1%x*} --height ${1#*x} --differences . \
        --json --progress --max-memory 20 > run.$n.json 2> run.$n.err && cp run.$n.json run.json
}
for size in 8x4 5x6 6x5; do
    [ -e $R/othello/$size-differences/run.1.err ] || differences $size $BIN 1200
done
[ -e $R/othello/4x8-differences/run.2.err ] || differences 4x8 $OLD 1200
mkdir -p $R/bt-5x6-reachable && cd $R/bt-5x6-reachable
cp -n $BIN ./dfasolve
cp -n /work/main/results/breakthrough/runs/classes.sh . && ./classes.sh 5 6 20 1 --reachable >> classes.log 2>&1
