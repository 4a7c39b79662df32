#!/usr/bin/env bash
# Lever 2's runs (build 539b0d3): spilled, in memory, then spilled under a 2 GiB cgroup cap.
cd $RUNS/bt-5x6-spill
export PATH=$PWD:$PATH
[ -s spilled.json ] || ./spill.sh spilled --max-memory 3.72 --spill spill
[ -s in-memory.json ] || ./spill.sh in-memory --max-memory 3.72
G=/sys/fs/cgroup/memory/process_api/0ae422f9bda18856216a28f9a618c74b/dfasolve-2g
mkdir -p $G && echo $((2 << 30)) > $G/memory.limit_in_bytes
[ -s spilled-2g.json ] || CGROUP=$G ./spill.sh spilled-2g --max-memory 1.9 --spill spill
