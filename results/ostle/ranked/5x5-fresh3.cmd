# The third fresh class-by-class solve of Ostle 5x5 (class reading), build 7625ed3, alone on the
# machine, run in ~/dfasolve-runs/ostle-5x5-fresh3/ by 5x5-fresh3.sh (from 2026-11-28 06:57) and
# resumed by ../../handover-2026-11-28-4.sh; per class it writes class-NAME.N.err (stderr and
# /usr/bin/time -v) and class-NAME.N.json (the report), copied here as 5x5-fresh3-class-NAME.err and
# 5x5-fresh3-class-NAME.json (for a class solved in several runs, 5x5-fresh3-class-NAME.N.*).
# 5x5-fresh3-class-5v4.cpu.txt: the job's user + system clock ticks (1/100 s), sampled every 10 s
# from /proc/PID/stat (unix time, ticks); 5x5-fresh3-class-5v5.cpu.partial.txt the same for 5 v 5
# from about 120 s into it. 5x5-fresh3-class-5v5.1.partial.err: 5 v 5's trace up to the hand-over
# of 2026-11-28 (the run went on).
/usr/bin/time -v ./dfasolve-7625ed3 explicit ostle --rule class --long --tables tables --class 4v4 --json --max-memory 20 --no-census --check-sample 0 > class-4v4.1.json 2> class-4v4.1.err
/usr/bin/time -v ./dfasolve-7625ed3 explicit ostle --rule class --long --tables tables --class 5v4 --json --max-memory 20 --no-census --check-sample 0 > class-5v4.1.json 2> class-5v4.1.err
/usr/bin/time -v ./dfasolve-7625ed3 explicit ostle --rule class --long --tables tables --class 5v5 --json --max-memory 20 --no-census --check-sample 0 > class-5v5.1.json 2> class-5v5.1.err
