# The fresh class-by-class solve of Ostle 5x5 (class reading), run in ~/dfasolve-runs/ostle-5x5-fresh/
# by 5x5-fresh.sh; per class it writes class-NAME.N.err (stderr and /usr/bin/time -v) and
# class-NAME.N.json (the report), copied here as 5x5-fresh-class-4v4.err and 5x5-fresh-class-4v4.json,
# and for {5 v 4, 4 v 5}, solved in two runs, 5x5-fresh-class-5v4.1.err, 5x5-fresh-class-5v4.2.err and
# 5x5-fresh-class-5v4.2.json.
/usr/bin/time -v ./dfasolve-13553a4 explicit ostle --rule class --long --tables tables --class 4v4 --json --max-memory 20 --no-census --check-sample 0 > class-4v4.1.json 2> class-4v4.1.err
/usr/bin/time -v ./dfasolve-13553a4 explicit ostle --rule class --long --tables tables --class 5v4 --json --max-memory 20 --no-census --check-sample 0 > class-5v4.1.json 2> class-5v4.1.err
/usr/bin/time -v ./dfasolve-13553a4 explicit ostle --rule class --long --tables tables --class 5v4 --json --max-memory 20 --no-census --check-sample 0 > class-5v4.2.json 2> class-5v4.2.err
# The second fresh solve (2026-11-27 18:08-), same directory, builds 623e55a (4v4, 5v4) and 51eca9c (5v5);
# records copied here as 5x5-fresh2-class-4v4.err, 5x5-fresh2-class-4v4.json, 5x5-fresh2-class-5v4.err,
# 5x5-fresh2-class-5v4.json, 5x5-fresh2-class-5v5.1.err (5v5's run 1, ended with its session after
# the checkpoint that follows the count), 5x5-fresh2-class-5v5.2.err (run 2, resumed there by
# run-fresh-2.sh, the same command writing class-5v5.2.*, ended with its session after level 35) and
# 5x5-fresh2-class-5v5.3.{err,json} (run 3, 2026-11-28, run-fresh-2.sh again: resumed after level 35, to the end);
# 5x5-fresh2-wait-then-5v5.sh started run 1.
/usr/bin/time -v ./dfasolve-623e55a explicit ostle --rule class --long --tables tables --class 4v4 --json --max-memory 20 --no-census --check-sample 0 > class-4v4.1.json 2> class-4v4.1.err
/usr/bin/time -v ./dfasolve-623e55a explicit ostle --rule class --long --tables tables --class 5v4 --json --max-memory 20 --no-census --check-sample 0 > class-5v4.1.json 2> class-5v4.1.err
/usr/bin/time -v ./dfasolve-51eca9c explicit ostle --rule class --long --tables tables --class 5v5 --json --max-memory 20 --no-census --check-sample 0 > class-5v5.1.json 2> class-5v5.1.err
/usr/bin/time -v ./dfasolve-51eca9c explicit ostle --rule class --long --tables tables --class 5v5 --json --max-memory 20 --no-census --check-sample 0 > class-5v5.2.json 2> class-5v5.2.err
/usr/bin/time -v ./dfasolve-51eca9c explicit ostle --rule class --long --tables tables --class 5v5 --json --max-memory 20 --no-census --check-sample 0 > class-5v5.3.json 2> class-5v5.3.err
# 2026-11-28, build 517f046, beside the DFA solve of the 4 v 4 class (run in ~/dfasolve-runs/ostle-5x5-fresh): 5x5-fresh2-check-1m.{json,err}
/usr/bin/time -v dfasolve check tables --sample 1000000 --json > check-1m.json 2> check-1m.err
