# build 150dafb, 2026-11-25 20:08-20:28, beside the 5x5 4 v 4 solve (both cores shared), after the whole solve of ostle-4x4-k4-t2.* (same build, same conditions):
/usr/bin/time -v dfasolve ostle --width 4 --height 4 --pieces 4 --lose-at 2 --quiet --csv ostle-4x4-k4-t2-classes.csv --by-classes classes > classes.txt
dfasolve check classes --sample 2000 > ostle-4x4-k4-t2-classes.check.txt
# the report .txt was printed again from the class files by the next build (00557d8's fix: one census row per value, not one per class and value):
dfasolve ostle --width 4 --height 4 --pieces 4 --lose-at 2 --quiet --by-classes classes --no-save > ostle-4x4-k4-t2-classes.txt
