#!/usr/bin/env bash
# Othello 4x6 over the positions reachable from the start, by classes of discs, one job per
# class from the full board down (the first job also makes every class's universe from the
# start and saves it in classes/). Rerun after a stop: solved classes are skipped.
set -uo pipefail
cd "$(dirname "$0")"
BIN=./dfasolve-48d697f
for discs in $(seq 24 -1 4); do
    [ -f classes/class-$discs.dfas ] && continue
    /usr/bin/time -v $BIN othello --width 4 --height 6 --reachable --by-classes classes --class $discs \
        --json --progress --max-memory 4 > class-$discs.json 2> class-$discs.err || exit 1
done
