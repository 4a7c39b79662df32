#!/usr/bin/env bash
# A third fresh class-by-class solve (build 7625ed3: PDEP boards and the early stop of moves that change nothing) of Ostle(5x5, 5, 3), class reading, into tables/ here: one job
# per class under /usr/bin/time -v. Rerun it after a stop: solved classes are skipped and the
# class under way resumes from its checkpoint in tables/.
set -uo pipefail
cd "$(dirname "$0")"
BIN=./dfasolve-7625ed3
for class in 4v4 5v4 5v5; do
    [ -f tables/class-$class.ranked ] && continue
    n=1; while [ -e class-$class.$n.err ]; do n=$((n+1)); done
    /usr/bin/time -v $BIN explicit ostle --rule class --long --tables tables --class $class \
        --json --max-memory 20 --no-census --check-sample 0 > class-$class.$n.json 2> class-$class.$n.err || exit 1
done
