# The third fresh class-by-class solve of Ostle 5x5 (class reading), build 7625ed3, alone on the
# machine, run in $RUNS/ostle-5x5-fresh3/ by its run.sh (5x5-fresh.sh with
# BIN=./dfasolve-7625ed3; from 2026-11-28 06:57) and resumed with the same command.
# Per class it writes class-NAME.N.err (stderr and /usr/bin/time -v) and class-NAME.N.json (the
# report), copied here as:
#   5x5-fresh3-class-4v4.json, 5x5-fresh3-class-4v4.err (the first command below),
#   5x5-fresh3-class-5v4.json, 5x5-fresh3-class-5v4.err (the second),
#   5x5-fresh3-class-5v5.1.err (the third, run 1: killed from outside after its checkpoint
#   after level 13, so no report and no /usr/bin/time lines),
#   5x5-fresh3-class-5v5.2.json, 5x5-fresh3-class-5v5.2.err (the fourth: the same command
#   resumed from that checkpoint to the end; the script numbers a class's runs).
# CPU samplers beside the jobs: the job's user + system clock ticks (1/100 s) read every 10 s from
# /proc/PID/stat, as lines of unix time and ticks:
#   5x5-fresh3-class-5v4.cpu.txt (the whole of the second command),
#   5x5-fresh3-class-5v5.1.cpu.txt (the third, from about 120 s into it to 08:52),
#   5x5-fresh3-class-5v5.2.cpu.txt (the fourth, from its first seconds to its end).
#   while kill -0 $PID; do echo "$(date +%s) $(awk '{print $14+$15}' /proc/$PID/stat)"; sleep 10; done
/usr/bin/time -v ./dfasolve-7625ed3 explicit ostle --rule class --long --tables tables --class 4v4 --json --max-memory 20 --no-census --check-sample 0 > class-4v4.1.json 2> class-4v4.1.err
/usr/bin/time -v ./dfasolve-7625ed3 explicit ostle --rule class --long --tables tables --class 5v4 --json --max-memory 20 --no-census --check-sample 0 > class-5v4.1.json 2> class-5v4.1.err
/usr/bin/time -v ./dfasolve-7625ed3 explicit ostle --rule class --long --tables tables --class 5v5 --json --max-memory 20 --no-census --check-sample 0 > class-5v5.1.json 2> class-5v5.1.err
/usr/bin/time -v ./dfasolve-7625ed3 explicit ostle --rule class --long --tables tables --class 5v5 --json --max-memory 20 --no-census --check-sample 0 > class-5v5.2.json 2> class-5v5.2.err
