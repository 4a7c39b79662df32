#!/usr/bin/env bash
# The start's exact disc difference of an Othello board solved by class jobs over the
# reachable positions: a binary search over thresholds, each threshold solved class by class
# (one dfasolve job per class, the full board first) into thr/T/classes, whose universe files
# are hard links to those of a solve already made (universes do not depend on the threshold).
# Rerun after a stop: solved classes and thresholds are read, not solved again.
# Usage (in the run directory, beside a build copied there as ./dfasolve):
#   margin-by-classes.sh WIDTH HEIGHT UNIVERSES_DIR 'START' [MAX_MEMORY_GIB]
# UNIVERSES_DIR holds universe-N.dfas (e.g. the plain game's class directory); START is the
# start in the game's text form (4x6: '..../..../.ox./.xo./..../.... black'). Writes
# thr/T/class-N.{json,err} per job, and search.txt: each threshold's value of the start and
# at the end the difference. A plain solve already made (threshold 0) is used as it is when
# thr/0 is a link to its directory's parent (thr/0/classes its class directory).
set -uo pipefail
W=$1 H=$2 UNIVERSES=$3 START=$4 MEM=${5:-20}
BIN=${BIN:-./dfasolve}
squares=$((W * H))

solve() { # THRESHOLD: every class of the board at that threshold
    local t=$1 d
    mkdir -p "thr/$t/classes"
    for u in "$UNIVERSES"/universe-*.dfas; do
        [ "$u" -ef "thr/$t/classes/$(basename "$u")" ] || ln -f "$u" "thr/$t/classes/$(basename "$u")"
    done
    for d in $(seq "$squares" -1 4); do
        [ -f "thr/$t/classes/class-$d.dfas" ] && continue
        [ -f "thr/$t/classes/universe-$d.dfas" ] || continue
        /usr/bin/time -v "$BIN" othello --width "$W" --height "$H" --reachable --threshold "$t" \
            --by-classes "thr/$t/classes" --class "$d" --json --progress --max-memory "$MEM" \
            > "thr/$t/class-$d.json" 2> "thr/$t/class-$d.err" || { echo "threshold $t class $d failed"; exit 1; }
    done
}

start_value() { # THRESHOLD: win, draw or loss for Black (to move at the start)
    "$BIN" query "thr/$1/classes" "$START" --json | python3 -c \
        'import json,sys; print(json.load(sys.stdin)["value"].split()[0])'
}

lo=-$squares hi=$squares
: > search.txt
while [ "$lo" -le "$hi" ]; do
    t=$(( lo + (hi - lo) / 2 ))
    solve "$t"
    v=$(start_value "$t") || exit 1
    echo "threshold $t: $v" >> search.txt
    case $v in
        draw) echo "Black's difference: $t" >> search.txt; exit 0 ;;
        win) lo=$((t + 1)) ;;
        loss) hi=$((t - 1)) ;;
        *) echo "unexpected value: $v" >> search.txt; exit 1 ;;
    esac
done
echo "no threshold draws the start" >> search.txt; exit 1
