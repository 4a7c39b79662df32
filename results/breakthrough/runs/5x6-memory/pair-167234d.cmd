DFASOLVE_TRACE=1 /usr/bin/time -v dfasolve breakthrough --width 5 --height 6 --json --csv run.csv --out bt-5x6.dfas --checkpoint ckpt --max-memory 3.72   # build 167234d, 2026-11-26 07:59
