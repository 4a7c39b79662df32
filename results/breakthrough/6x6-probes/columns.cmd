# Lever 3 on 6x6: the meet in the middle in column order, stopped after 15 minutes. In $RUNS/bt-6x6-probes/,
# beside the build 56f2775 copied there as ./dfasolve (2026-11-29 03:43-03:58):
/usr/bin/time -v timeout 900 ./dfasolve breakthrough --width 6 --height 6 --order columns --json --no-save --csv columns.csv --progress --max-memory 20
# Stopped by the timeout (exit 124) in forward ply 16: columns.partial.csv has plies 0-15, columns.err the progress lines
# and /usr/bin/time's report. Alone but for a niced cargo test --release build of the integration tests (03:52-03:58).
