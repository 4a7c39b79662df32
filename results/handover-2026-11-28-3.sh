#!/usr/bin/env bash
# Session 41's queue, one heavy job at a time: wait for the bounded 5x6 meet in the middle
# (started by handover.sh), then cross-check the 4 v 4 tables against the 4 v 4 DFA solution
# with a million states on each side (tables-4v4/ holds a hard link to the 4 v 4 class file
# only, so the check's own draws stay in the class the DFA holds). Rerun to resume.
set -uo pipefail
R=~/dfasolve-runs
while pgrep -f "bt-5x6-mitm.dfas" > /dev/null; do sleep 20; done
cd $R/ostle-4v4-class-dfa
if [ ! -s check-against-1m.json ]; then
    /usr/bin/time -v $R/dfasolve-f56d094 check $R/ostle-5x5-fresh/tables-4v4 --against ostle-4v4-class.dfas \
        --sample 1000000 --json > check-against-1m.json 2> check-against-1m.err
fi
