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
