#!/usr/bin/env bash
# Session 46 reordered its queue so that lever 2 reaches 5x7 within the session: after the spilled
# 4x8 run that handover-2026-11-28-15.sh started (pass its spill.sh PID to wait for it), the 5x7
# pair of handover-2026-11-28-16.sh, then handover-2026-11-28-15.sh again, which skips the
# finished spilled run and runs 4x8 in memory (checkpointed: rerun this to resume it).
set -uo pipefail
R=~/dfasolve-runs
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
cd $R/bt-4x8-spill
for n in $(seq 9 -1 1); do
    if [ ! -s spilled.json ] && grep -q 'Exit status: 0' spilled.$n.err 2>/dev/null; then
        cp spilled.$n.json spilled.json
    fi
done
$R/handover-16.sh
$R/handover-15.sh
