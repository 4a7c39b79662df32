#!/bin/bash
# Same solves with both builds: solution files, stats and text reports (timing columns cut).
set -e
cases=(
 "breakthrough --width 4 --height 5"
 "breakthrough --width 4 --height 4 --strong"
 "breakthrough --width 5 --height 4 --strong --order columns"
 "nim --heaps 4 --tokens 7"
 "nim --heaps 3 --tokens 5 --strong"
 "ostle --width 3 --height 3 --pieces 3 --lose-at 2"
 "ostle --width 3 --height 4 --pieces 3 --lose-at 2 --rule class"
)
for b in base new; do
  i=0
  for c in "${cases[@]}"; do
    i=$((i+1))
    ./$b $c --out $b-$i.dfas --csv $b-$i.csv > $b-$i.txt
    ./$b stats $b-$i.dfas > $b-$i.stats
    ./$b check $b-$i.dfas --sample 200 > $b-$i.check
  done
done
for i in $(seq 1 ${#cases[@]}); do
  cmp base-$i.dfas new-$i.dfas && echo "case $i: solution files identical ($(stat -c %s new-$i.dfas) bytes)"
  diff <(sed 's/ *[0-9.]* *$//' base-$i.txt | grep -v '^total:\|census computed') <(sed 's/ *[0-9.]* *$//' new-$i.txt | grep -v '^total:\|census computed') > /dev/null && echo "case $i: reports identical but for times"
  diff <(tail -n +2 base-$i.stats) <(tail -n +2 new-$i.stats) >/dev/null && echo "case $i: stats identical"
  diff base-$i.check new-$i.check >/dev/null && echo "case $i: check identical"
  diff <(cut -d, -f1-9 base-$i.csv) <(cut -d, -f1-9 new-$i.csv) >/dev/null && echo "case $i: csv identical but for times and memory"
done
