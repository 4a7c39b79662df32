DFASOLVE_TRACE=1 /usr/bin/time -v timeout 125m dfasolve ostle --by-classes classes --class 5v4 --checkpoint ckpt --csv ck-run5/5v4.csv --max-memory 22 --progress   # build f44f113, 2026-11-26 05:00
