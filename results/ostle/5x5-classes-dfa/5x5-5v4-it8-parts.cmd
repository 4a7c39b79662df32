DFASOLVE_TRACE=1 /usr/bin/time -v timeout 70m dfasolve ostle --by-classes classes --class 5v4 --checkpoint ckpt --csv ck-run8/5v4.csv --max-memory 22 --progress   # build 167234d, 2026-11-26 08:32
# paused with SIGSTOP 08:44-08:59 while the 5x6 record ran; its timeout was stopped (SIGSTOP) at 09:32 so that the run goes on past 70 minutes: no /usr/bin/time record until it ends
