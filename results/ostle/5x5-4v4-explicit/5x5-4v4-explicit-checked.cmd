# The same solve with the default random check (build ebcbf71), 2026-11-26 11:52-13:13, two .ci/run beside it:
/usr/bin/time -v dfasolve explicit ostle --width 5 --height 5 --pieces 4 --lose-at 3 --json > ostle-5x5-4v4-explicit-checked.json 2> ostle-5x5-4v4-explicit-checked.err
