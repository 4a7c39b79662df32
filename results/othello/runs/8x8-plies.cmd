# build f213577, 2026-11-27 21:58-22:02, niced beside the Ostle 5x5 class solve and criterion benches;
# stdout 8x8-plies.txt, stderr and /usr/bin/time -v 8x8-plies.err (stopped by its 4 GiB budget in ply 10)
/usr/bin/time -v nice -n 10 dfasolve othello --width 8 --height 8 --plies 14 --max-memory 4
