#!/usr/bin/env bash
# After handover-2026-11-28-12.sh (its pid as $1): 10x4, solved strongly beyond the published
# table on 2026-11-25 but never checked (its 1.1 GB solution was not kept), solved again with
# --out and checked like 2x9, 2x10, 3x9 and 9x4 (runs/WxH.check.txt), with build 56f2775.
# Rerun to resume: the solve resumes from its checkpoints, a made solution is not made again.
set -uo pipefail
R=~/dfasolve-runs
if [ $# -ge 1 ]; then while kill -0 "$1" 2>/dev/null; do sleep 30; done; fi
mkdir -p $R/bt-10x4 && cd $R/bt-10x4
cp -n $R/dfasolve-56f2775 ./dfasolve
[ -s bt-10x4.dfas ] || /usr/bin/time -v ./dfasolve breakthrough --width 10 --height 4 --strong --json \
    --out bt-10x4.dfas --checkpoint ckpt > solve.json 2> solve.err || exit 1
/usr/bin/time -v ./dfasolve check bt-10x4.dfas --sample 300 > check.txt 2> check.err
