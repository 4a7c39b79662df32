DFASOLVE_TRACE=1 /usr/bin/time -v dfasolve breakthrough --width 5 --height 6 --json --csv run.csv --out bt-5x6.dfas --checkpoint ckpt    # build 2eba480, 2026-11-26 08:15
