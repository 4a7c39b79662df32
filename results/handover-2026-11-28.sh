#!/usr/bin/env bash
# Session 40's queue, one heavy job at a time: wait for the Ostle 4 v 4 DFA solve (class
# reading), check the 5x5 tables against it, then time the bounded 5x6 meet in the middle
# alone, then solve 5x6 strong by class jobs (resumable: rerun this script).
set -uo pipefail
R=~/dfasolve-runs
BIN=$R/dfasolve-handover
while pgrep -f dfasolve-a167d0d > /dev/null; do sleep 30; done
cd $R/ostle-4v4-class-dfa
if [ -f ostle-4v4-class.dfas ] && [ ! -s check-against.json ] && [ ! -s check-against.err ]; then
    /usr/bin/time -v $BIN check $R/ostle-5x5-fresh/tables --against ostle-4v4-class.dfas \
        --sample 1000000 --json > check-against.json 2> check-against.err
fi
cd $R/bt-5x6-mitm-bounded
if [ ! -s run.1.json ]; then
    /usr/bin/time -v $BIN breakthrough --width 5 --height 6 --json --csv run.1.csv --out bt-5x6-mitm.dfas \
        --max-memory 3.72 > run.1.json 2> run.1.err
fi
cd $R/bt-5x6-classes
cp -n $BIN ./dfasolve
cp -n /work/main/results/breakthrough/runs/classes.sh . && ./classes.sh 5 6 20 > classes.log 2>&1
