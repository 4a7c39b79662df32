#!/usr/bin/env bash
# A fresh class-by-class solve of Ostle(5x5, 5, 3), class reading, into tables/ here: one job
# per class under /usr/bin/time -v. Rerun it after a stop: solved classes are skipped and the
# class under way resumes from its checkpoint in tables/. BIN names the build (the first fresh
# solve's by default; the third ran it as BIN=./dfasolve-7625ed3).
set -uo pipefail
cd "$(dirname "$0")"
BIN=${BIN:-./dfasolve-13553a4}
for class in 4v4 5v4 5v5; do
    [ -f tables/class-$class.ranked ] && continue
    n=1; while [ -e class-$class.$n.err ]; do n=$((n+1)); done
    /usr/bin/time -v $BIN explicit ostle --rule class --long --tables tables --class $class \
        --json --max-memory 20 --no-census --check-sample 0 > class-$class.$n.json 2> class-$class.$n.err || exit 1
done
