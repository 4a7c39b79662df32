#!/usr/bin/env bash
# For the session after 45: lever 2 on 4x8 as a pair of one build (56f2775), one heavy job at a
# time; rerun to resume (a run whose NAME.json exists is skipped; a stopped one resumes from its
# checkpoints as attempt NAME.N, the attempts' wall and CPU adding up):
# 1. the spilled meet in the middle that handover-2026-11-28-14.sh started (ckpt/);
# 2. the same meet in the middle in memory, with its own checkpoints, so that the pair shares the
#    build (the in-memory record of 2026-11-26 is of an older build, run in two parts).
set -uo pipefail
R=~/dfasolve-runs
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
mkdir -p $R/bt-4x8-spill/spill && cd $R/bt-4x8-spill
cp -n $R/dfasolve-56f2775 ./dfasolve 2>/dev/null
[ -x dfasolve ] || { echo "no build: build 56f2775 and copy it to $R/dfasolve-56f2775" >&2; exit 1; }
cp /work/main/results/breakthrough/runs/levers/spill.sh .
for run in "spilled --spill spill --checkpoint ckpt" "in-memory --checkpoint ckpt-in-memory"; do
    set -- $run
    name=$1
    shift
    [ -s $name.json ] && continue
    n=1; while [ -e $name.$n.err ]; do n=$((n+1)); done
    PATH=$PWD:$PATH WIDTH=4 HEIGHT=8 ./spill.sh $name.$n --max-memory 20 "$@" && cp $name.$n.json $name.json || exit 1
done
