DFASOLVE_TRACE=1 /usr/bin/time -v dfasolve breakthrough --width 5 --height 6 --json --csv run.csv --out bt-5x6.dfas --max-memory 3.72   # build ef388a4, 2026-11-25 15:43-16:00, alone, no --checkpoint
