#!/usr/bin/env bash
# After run.sh: the start's value from the class directory, and the re-check by the plain rules.
set -uo pipefail
cd "$(dirname "$0")"
BIN=./dfasolve-48d697f
/usr/bin/time -v $BIN query classes '..../..../.ox./.xo./..../.... black' > query-start.txt 2> query-start.err
/usr/bin/time -v $BIN check classes --sample 2000 --json > check.json 2> check.err
