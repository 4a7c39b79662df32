#!/bin/sh
# Solve Ostle variants with DFAs, verify the small ones against the explicit tables, and keep
# the reports. Usage: results/ostle/run.sh   (from the repository root; release build)
set -e
cargo build --release --quiet
bin=target/release/dfasolve
out=results/ostle/small-variants
mkdir -p "$out"
for v in "3 3 3 1" "3 3 3 2" "3 4 3 2" "4 3 3 2" "3 4 3 1" "4 4 3 2" "4 4 4 3" "4 4 4 2" "4 4 2 1"; do
    set -- $v
    name="ostle-$1x$2-k$3-t$4"
    /usr/bin/time -v $bin ostle --width $1 --height $2 --pieces $3 --lose-at $4 --quiet \
        --csv "$out/$name.csv" --out "solutions/$name.dfas" > "$out/$name.txt" 2> "$out/$name.time"
    $bin plot "$out/$name.csv" > /dev/null
done
for v in "3 3 3 1" "3 3 3 2" "3 4 3 2" "4 3 3 2" "3 4 3 1" "4 4 3 2" "4 4 2 1"; do
    set -- $v
    name="ostle-$1x$2-k$3-t$4"
    /usr/bin/time -v $bin verify ostle --width $1 --height $2 --pieces $3 --lose-at $4 --quiet \
        > "$out/$name.verify.txt" 2> "$out/$name.verify.time"
done
# The symmetry-class reading of the no-undo rule (published convention): DFA solve and report,
# then every explicit class-reading table entry checked.
for v in "3 3 3 1" "3 3 3 2" "3 4 3 1" "4 4 3 2" "4 4 2 1"; do
    set -- $v
    name="ostle-$1x$2-k$3-t$4-class"
    /usr/bin/time -v $bin ostle --width $1 --height $2 --pieces $3 --lose-at $4 --rule class --quiet \
        --csv "$out/$name.csv" --out "solutions/$name.dfas" > "$out/$name.txt" 2> "$out/$name.time"
    $bin plot "$out/$name.csv" > /dev/null
    /usr/bin/time -v $bin verify ostle --width $1 --height $2 --pieces $3 --lose-at $4 --rule class --quiet \
        > "$out/$name.verify.txt" 2> "$out/$name.verify.time"
done
