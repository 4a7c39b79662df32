DFASOLVE_TRACE=1 /usr/bin/time -v dfasolve breakthrough --width 5 --height 6 --json --csv run.csv --out bt-5x6.dfas --checkpoint ckpt    # build ef388a4, 2026-11-25 15:16-15:33, alone
