#!/usr/bin/env bash
# After handover-2026-11-29-19.sh (its pid the first argument): the wide five-row boards by meet
# in the middle, build 56f2775, one heavy job at a time, spilled and checkpointed (rerun to resume;
# a size whose run.json holds a report is skipped):
# 1. 6x5, whose strong solve (second player wins, loss in 30 plies) checks its winner, and whose
#    time and sets say what 7x5 will need;
# 2. 7x5, not solved by anyone published: the strong solve stopped after iteration 11 of about 36
#    (runs/7x5.status). Each attempt is bounded to 2.5 hours; the next resumes from ckpt/.
set -uo pipefail
R=~/dfasolve-runs
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
for size in 6x5 7x5; do
    mkdir -p $R/bt-$size-mitm/spill && cd $R/bt-$size-mitm || exit 1
    cp -n $R/dfasolve-56f2775 ./dfasolve 2>/dev/null
    [ -x dfasolve ] || { echo "no build: build 56f2775 and copy it to $R/dfasolve-56f2775" >&2; exit 1; }
    grep -q '"winner"' run.json 2>/dev/null && continue
    n=1; while [ -e run.$n.err ]; do n=$((n+1)); done
    /usr/bin/time -v timeout 9000 ./dfasolve breakthrough --width ${size%x*} --height ${size#*x} --json \
        --csv run.$n.csv --out bt-$size.dfas --progress --max-memory 20 --spill spill --checkpoint ckpt \
        > run.$n.json 2> run.$n.err || exit 1
    cp run.$n.json run.json
done
