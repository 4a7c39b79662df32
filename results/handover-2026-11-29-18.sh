#!/usr/bin/env bash
# For the session after 46, one heavy job at a time with build 56f2775 (rerun to resume; a run
# whose NAME.json exists is skipped, a stopped one resumes from its checkpoints as NAME.N+1):
# 1. 4x8 in memory, the same-build pair of the spilled 4x8 run (handover-2026-11-28-15.sh);
# 2. lever 2 on 6x6: the meet in the middle with its finished sets spilled, checkpointed, for as
#    long as the sessions give it: how far past ply 37 (where the run in memory of 2026-11-25
#    stopped at 11.3 GiB) the spilled sets carry it within 20 GiB that the kernel cannot drop.
set -uo pipefail
R=~/dfasolve-runs
$R/handover-15.sh || exit 1
mkdir -p $R/bt-6x6-spill/spill && cd $R/bt-6x6-spill
cp -n $R/dfasolve-56f2775 ./dfasolve 2>/dev/null
[ -x dfasolve ] || { echo "no build: build 56f2775 and copy it to $R/dfasolve-56f2775" >&2; exit 1; }
cp /work/main/results/breakthrough/runs/levers/spill.sh .
[ -s spilled.json ] && exit 0
n=1; while [ -e spilled.$n.err ]; do n=$((n+1)); done
PATH=$PWD:$PATH WIDTH=6 HEIGHT=6 ./spill.sh spilled.$n --max-memory 20 --spill spill --checkpoint ckpt \
    && cp spilled.$n.json spilled.json
