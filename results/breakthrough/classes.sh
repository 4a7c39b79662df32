#!/usr/bin/env bash
# Breakthrough strong by classes of pawns, one job per class, lowest first, each under
# /usr/bin/time -v so that every class has its own wall, CPU and peak (the per-class profile
# the whole run's trace cannot give). Rerun after a stop: solved classes are skipped and the
# class under way resumes from its checkpoints.
# Usage (in the run directory, beside a build copied there as ./dfasolve):
#   classes.sh WIDTH HEIGHT [MAX_MEMORY_GIB] [JOBS] [OPTION ...]
# OPTIONs go to every job (e.g. --reachable: each class over its positions reachable from the
# start; the first job sweeps them and saves every class's universe in classes/).
# JOBS > 1 solves that many classes of one total number of pawns side by side (a move stays in
# its class or captures into a lower total, so they do not read each other), each with an
# equal share of MAX_MEMORY_GIB; a class that stops on its share is solved again alone with the
# whole budget, resuming from its checkpoints.
# Writes classes/class-NAME.dfas, ckpt/, and per class and attempt class-NAME.N.{json,err}.
set -uo pipefail
W=$1 H=$2 MEM=${3:-20} JOBS=${4:-1}
shift $(( $# < 4 ? $# : 4 ))
EXTRA=("$@")
BIN=${BIN:-./dfasolve}

solve() { # CLASS MEMORY: one job; its exit status
    local class=$1 mem=$2 n=1
    while [ -e "class-$class.$n.err" ]; do n=$((n+1)); done
    DFASOLVE_TRACE=1 /usr/bin/time -v "$BIN" breakthrough --width "$W" --height "$H" --strong \
        --by-classes classes --class "$class" --checkpoint ckpt --max-memory "$mem" --json --no-save "${EXTRA[@]}" \
        > "class-$class.$n.json" 2> "class-$class.$n.err"
}

finish() { # CLASS: the class file holds its values, so its iterations' checkpoints go
    rm -f ckpt/class-"$1"-*
}

classes=$($BIN breakthrough --width "$W" --height "$H" --strong --by-classes classes --list-classes "${EXTRA[@]}" | cut -f1) || exit 1
for total in $(for c in $classes; do echo $(( ${c%v*} + ${c#*v} )); done | sort -nu); do
    todo=()
    for c in $classes; do
        [ $(( ${c%v*} + ${c#*v} )) -eq "$total" ] && [ ! -f "classes/class-$c.dfas" ] && todo+=("$c")
    done
    if [ "$JOBS" -le 1 ] || [ ${#todo[@]} -le 1 ]; then
        for c in "${todo[@]}"; do
            solve "$c" "$MEM" || { echo "class $c failed: see its last class-$c.N.err"; exit 1; }
            finish "$c"
        done
        continue
    fi
    share=$(awk -v m="$MEM" -v j="$JOBS" 'BEGIN { printf "%.2f", m / j }')
    for c in "${todo[@]}"; do
        # A pool: the next class starts as soon as one of the running ones ends.
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
        solve "$c" "$share" &
    done
    wait
    for c in "${todo[@]}"; do
        if [ ! -f "classes/class-$c.dfas" ]; then
            echo "class $c stopped on its share of ${share} GiB: alone with ${MEM} GiB"
            solve "$c" "$MEM" || { echo "class $c failed: see its last class-$c.N.err"; exit 1; }
        fi
        finish "$c"
    done
done
