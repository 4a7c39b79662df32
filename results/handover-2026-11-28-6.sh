#!/usr/bin/env bash
# Session 42's hand-over queue for the next session, one heavy job at a time; rerun it to resume
# (each step skips what is done, and a board under way resumes at its class):
# 1. Othello 5x5's exact differences by rank: finished in session 42 (Black +13), so skipped;
#    then its check by the plain rules if the one started in session 42 did not finish;
# 2. handover.sh's 5x6 strong by class jobs (Breakthrough, build ed1addc copied as bt-5x6-classes/dfasolve;
#    it skips what is done);
# 3. Othello's differences on 4x8, 8x4, 5x6 and 6x5 from scratch, each within --max-memory 20
#    (a board whose universes pass the budget stops cleanly and the queue goes on).
set -uo pipefail
R=~/dfasolve-runs
BIN=$R/dfasolve-ed1addc
# A queue still running (pid given as $1) is waited for, not doubled.
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
differences() { # WxH
    cd $R/othello/$1-differences || return
    [ -f differences-4.table ] && [ -s run.json ] && return
    local n=1; while [ -e run.$n.err ]; do n=$((n+1)); done
    /usr/bin/time -v $BIN othello --width ${1%x*} --height ${1#*x} --differences . \
        --json --progress --max-memory 20 > run.$n.json 2> run.$n.err && cp run.$n.json run.json
}
differences 5x5
# 5x5's check by the plain rules, if the niced one started at the end of session 42 did not finish.
cd $R/othello/5x5-differences && { grep -q '"passed":true' check.json 2>/dev/null ||
    /usr/bin/time -v $BIN check . --sample 100000 --json > check.json 2> check.err; }
$R/handover.sh >> $R/handover.log 2>&1
for size in 4x8 8x4 5x6 6x5; do differences $size; done
