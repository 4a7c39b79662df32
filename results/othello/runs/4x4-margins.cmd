# build f213577, 2026-11-27 22:02, niced beside the Ostle 5x5 class solve and criterion benches;
# stdout 4x4-margins.json (the index and the totals), stderr and /usr/bin/time -v 4x4-margins.err
/usr/bin/time -v nice -n 10 dfasolve othello --width 4 --height 4 --reachable --margins margins-4x4 --json
dfasolve query margins-4x4 '..../.ox./.xo./.... black'   # any position's exact difference, each move's, best first
