#!/usr/bin/env bash
# Takes over from handover-2026-11-28-12.sh and -13.sh (stopped; the 5x6 class jobs they started
# go on, their classes.sh's pid given as $1) so that the short step comes first: 10x4 solved
# again and checked (-13.sh's step), then lever 2 on 4x8 (-12.sh's second step), build 56f2775.
# Rerun to resume: each step skips what is done.
set -uo pipefail
R=~/dfasolve-runs
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
/work/main/results/handover-2026-11-28-13.sh
mkdir -p $R/bt-4x8-spill/spill && cd $R/bt-4x8-spill
cp -n $R/dfasolve-56f2775 ./dfasolve
cp /work/main/results/breakthrough/runs/levers/spill.sh .
n=1; while [ -e spilled.$n.err ]; do n=$((n+1)); done
[ -s spilled.json ] || { PATH=$PWD:$PATH WIDTH=4 HEIGHT=8 ./spill.sh spilled.$n --max-memory 20 --spill spill \
    --checkpoint ckpt && cp spilled.$n.json spilled.json; }
