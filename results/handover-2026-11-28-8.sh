#!/usr/bin/env bash
# Session 43's second queue (the first, handover-2026-11-28-7.sh, was stopped during its 5x6 check
# to bound the 6x6 step; its check went on and this queue waits for it), one heavy job at a time (rerun it to resume: each step skips what is done,
# and the long ones resume from their files):
# 0. dfasolve check of the Breakthrough 5x6 strong classes (300 a value class), if not done;
# 1. Breakthrough 5x5 and 4x6 by classes, every board string against the reachable positions
#    (--reachable), one after the other, alone: lever 1's pair (build 5ab7405);
# 2. Breakthrough 5x6 meet in the middle in column order (--order columns), against the row
#    order's 1,104 s: the reading-order lever on 5x6;
# 3. Breakthrough 6x6 strong by class jobs (classes.sh 6 6 20) for at most 45 minutes a run (a
#    measurement of the classes' growth: 6x6 has 474 times 5x6's board strings), resumable from ckpt/;
# 4. Othello 4x8's differences (its universes resume after the class of 17 discs), then 8x4,
#    5x6 and 6x5, each within --max-memory 20.
set -uo pipefail
R=~/dfasolve-runs
BIN=$R/dfasolve-5ab7405
OLD=$R/dfasolve-ed1addc
# A queue still running (pid given as $1) is waited for, not doubled.
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
cd $R/bt-5x6-classes && { grep -q '"passed":true' check.json 2>/dev/null ||
    /usr/bin/time -v $BIN check classes --sample 300 --json > check.json 2> check.err; }
mkdir -p $R/bt-levers && cd $R/bt-levers
for size in 5x5 4x6; do
    for how in strong reachable; do
        name=$size-$how
        [ -s $name.json ] && continue
        rm -rf $name
        extra=(); [ $how = reachable ] && extra=(--reachable)
        /usr/bin/time -v $BIN breakthrough --width ${size%x*} --height ${size#*x} --by-classes $name \
            "${extra[@]}" --json --no-save --progress > $name.json 2> $name.err || rm -f $name.json
    done
done
mkdir -p $R/bt-5x6-columns && cd $R/bt-5x6-columns
[ -s run.json ] || /usr/bin/time -v $BIN breakthrough --width 5 --height 6 --order columns --json \
    --csv run.csv --out bt-5x6-columns.dfas --checkpoint ckpt --max-memory 20 > run.json 2> run.err
mkdir -p $R/bt-6x6-classes && cd $R/bt-6x6-classes
cp -n $BIN ./dfasolve
cp -n /work/main/results/breakthrough/runs/classes.sh . && timeout 2700 ./classes.sh 6 6 20 >> classes.log 2>&1
differences() { # WxH
    cd $R/othello/$1-differences || return
    [ -f differences-4.table ] && [ -s run.json ] && return
    local n=1; while [ -e run.$n.err ]; do n=$((n+1)); done
    /usr/bin/time -v $OLD othello --width ${1%x*} --height ${1#*x} --differences . \
        --json --progress --max-memory 20 > run.$n.json 2> run.$n.err && cp run.$n.json run.json
}
for size in 4x8 8x4 5x6 6x5; do differences $size; done
