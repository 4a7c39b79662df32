#!/usr/bin/env bash
# The 5x5 census without solving, bounded to 6 GiB (the 5x6 strong solve by classes shares the machine).
cd ~/dfasolve-runs/ostle-5x5-census
/usr/bin/time -v ./dfasolve-55f9df2 ostle --census --json --max-memory 6 > census.json 2> census.time
/usr/bin/time -v ./dfasolve-55f9df2 ostle --census --max-memory 6 > census.txt 2> census-text.time || true
