DFASOLVE_TRACE=1 /usr/bin/time -v dfasolve ostle --pieces 4 --lose-at 3 --census --levels-minutes 3 --max-memory 20   # build 70e2aea, 2026-11-25 17:10-17:16, alone
