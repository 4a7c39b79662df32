#!/usr/bin/env bash
# For the session after 45: lever 2 on 4x8 as a pair of one build (56f2775), one heavy job at a
# time; rerun to resume (each step skips what is done).
# 1. handover-2026-11-28-14.sh: 10x4's check (done in session 45, skipped) and the spilled
#    4x8 meet in the middle, resumed from ~/dfasolve-runs/bt-4x8-spill/ckpt (its attempts are
#    spilled.N.*; their wall and CPU add up);
# 2. the same 4x8 meet in the middle in memory (no --spill), in the same directory with its own
#    checkpoints, so that the pair shares the build (the in-memory record of 2026-11-26 is of an
#    older build, run in two parts).
set -uo pipefail
R=~/dfasolve-runs
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
/work/main/results/handover-2026-11-28-14.sh || exit 1
cd $R/bt-4x8-spill
n=1; while [ -e in-memory.$n.err ]; do n=$((n+1)); done
[ -s in-memory.json ] || { PATH=$PWD:$PATH WIDTH=4 HEIGHT=8 ./spill.sh in-memory.$n --max-memory 20 \
    --checkpoint ckpt-in-memory && cp in-memory.$n.json in-memory.json; }
