#!/usr/bin/env bash
# Lever 2's runs under a 3 GiB cgroup cap (build 539b0d3): spilled, then in memory.
cd $RUNS/bt-5x6-spill
export PATH=$PWD:$PATH
G=/sys/fs/cgroup/memory/process_api/0ae422f9bda18856216a28f9a618c74b/dfasolve-3g
mkdir -p $G && echo $((3 << 30)) > $G/memory.limit_in_bytes
[ -s spilled-3g.json ] || CGROUP=$G ./spill.sh spilled-3g --max-memory 2.9 --spill spill
[ -s in-memory-3g.json ] || CGROUP=$G ./spill.sh in-memory-3g --max-memory 2.9
