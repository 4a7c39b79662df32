#!/usr/bin/env bash
# Breakthrough strong by classes of pawns, one job per class, lowest first, each under
# /usr/bin/time -v so that every class has its own wall, CPU and peak (the per-class profile
# the whole run's trace cannot give). Rerun after a stop: solved classes are skipped and the
# class under way resumes from its checkpoints.
# Usage (in the run directory, beside a build copied there as ./dfasolve):
#   classes.sh WIDTH HEIGHT [MAX_MEMORY_GIB]
# Writes classes/class-NAME.dfas, ckpt/, and per class class-NAME.{json,err}.
set -uo pipefail
W=$1 H=$2 MEM=${3:-20}
BIN=${BIN:-./dfasolve}
for class in $($BIN breakthrough --width "$W" --height "$H" --strong --by-classes classes --list-classes | cut -f1); do
    [ -f "classes/class-$class.dfas" ] && continue
    n=1; while [ -e "class-$class.$n.err" ]; do n=$((n+1)); done
    DFASOLVE_TRACE=1 /usr/bin/time -v "$BIN" breakthrough --width "$W" --height "$H" --strong \
        --by-classes classes --class "$class" --checkpoint ckpt --max-memory "$MEM" --json --no-save \
        > "class-$class.$n.json" 2> "class-$class.$n.err" || { echo "class $class failed: see class-$class.$n.err"; exit 1; }
    # The class file holds its values: its iterations' checkpoints are not read again.
    rm -f ckpt/class-"$class"-*
done
