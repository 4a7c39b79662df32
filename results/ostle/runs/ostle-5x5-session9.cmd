# Session 9 (2026-11-23), resumed from the iteration-1 checkpoint of session 8.
# a: build of 0e288ed (group images merged by a balanced tree of unions), iterations 2 and 3.
#    The 5x6 Breakthrough solve shared both cores; this run was also paused (SIGSTOP) for
#    several side-by-side measurements, so its wall times are high. a.rss: VmRSS every 5 s (KB).
#    Stopped by hand after iteration 3's checkpoint, to resume with a faster build.
DFASOLVE_TRACE=1 /usr/bin/time -v dfasolve ostle --checkpoint <dir> --no-save --json
# b: build of 838a745, resumed from iteration 3: iteration 4's first candidate pass grew past
#    16.6 GB before its forward phase ended, and the kernel's OOM killer stopped it (the 5x6
#    solve held about 5 GB beside it).
DFASOLVE_TRACE=1 /usr/bin/time -v dfasolve ostle --checkpoint <dir> --csv ostle-5x5.csv --json --out <file>
# c: build of 37e44f7 (packed child codes), resumed from iteration 3 with the layer trace, beside
#    the 5x6 solve (about 5 GB) and under a 12.5 GB watchdog: iteration 4's first candidate pass
#    finished (3.20 G child codes, 4,380 MiB packed, result 38.3 M states, 11.9 GB peak). The
#    run was still in iteration 4's candidates when the session ended. c.rss: VmRSS every 10 s.
DFASOLVE_TRACE=1 DFASOLVE_TRACE_LAYERS=1 /usr/bin/time -v dfasolve ostle --checkpoint <dir> --csv ostle-5x5.csv --json --out <file>
