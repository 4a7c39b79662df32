DFASOLVE_TRACE=1 /usr/bin/time -v timeout 60m dfasolve ostle --by-classes classes --class 5v4 --checkpoint ckpt --csv ck-run7/5v4.csv --max-memory 22 --progress   # build d85e9ed, 2026-11-26 05:59
