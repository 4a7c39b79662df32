DFASOLVE_TRACE=1 /usr/bin/time -v dfasolve ostle --pieces 4 --lose-at 3 --rule class --census --levels-minutes 3   # build 00557d8, 2026-11-25 20:30-20:37, beside the 5x5 4 v 4 solve
