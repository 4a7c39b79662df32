DFASOLVE_TRACE=1 /usr/bin/time -v dfasolve ostle --checkpoint <dir> --csv ostle-5x5.csv --json --out <file>  (stopped by an RSS watchdog at 19 GB)
