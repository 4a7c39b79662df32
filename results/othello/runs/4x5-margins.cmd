# build f213577, 2026-11-27 22:02-23:05, niced beside the Ostle 5x5 class solve, criterion benches, builds and
# test runs, and stopped (SIGSTOP) for about 14 minutes while the benches ran; stdout 4x5-margins.json (the
# index and the totals), stderr and /usr/bin/time -v 4x5-margins.err
/usr/bin/time -v nice -n 10 dfasolve othello --width 4 --height 5 --reachable --margins margins-4x5 --json
