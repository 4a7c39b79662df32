#!/usr/bin/env bash
# Session 40's queue, resumed: the cross-check with 5,000 states per side and value class
# (the million-state run thrashed: 14.7 GB of solution beside 17 GB of mapped tables), then
# handover.sh's queue (it skips the check once check-against.json exists), then handover-2.sh.
set -uo pipefail
R=~/dfasolve-runs
cd $R/ostle-4v4-class-dfa
if [ ! -s check-against.json ]; then
    /usr/bin/time -v $R/dfasolve-handover check $R/ostle-5x5-fresh/tables --against ostle-4v4-class.dfas \
        --sample 5000 --json > check-against.json 2> check-against.err
fi
$R/handover.sh >> $R/handover.log 2>&1
$R/handover-2.sh >> $R/handover-2.log 2>&1
