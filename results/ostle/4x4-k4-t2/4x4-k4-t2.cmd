# build 150dafb, 2026-11-25 20:08-20:15, beside the 5x5 4 v 4 solve (both cores shared); the command of results/ostle/run.sh:
/usr/bin/time -v dfasolve ostle --width 4 --height 4 --pieces 4 --lose-at 2 --quiet --csv ostle-4x4-k4-t2.csv --out solutions/ostle-4x4-k4-t2.dfas > ostle-4x4-k4-t2.txt
