#!/usr/bin/env bash
# Lever 2 on 5x6: the meet in the middle with its finished sets spilled to mapped files, against
# the same build with them in memory. Run in an empty directory with dfasolve on the PATH:
#   results/breakthrough/spill.sh NAME [OPTIONS...]
# runs `dfasolve breakthrough --width 5 --height 6 OPTIONS` under /usr/bin/time -v (another
# board with WIDTH and HEIGHT set, e.g. WIDTH=4 HEIGHT=8), writing
# NAME.{json,err,csv} and NAME.anon (the largest RssAnon + RssShmem seen, sampled every
# second: memory the kernel cannot drop, which VmHWM does not separate from mapped files).
# With CGROUP set to a memory cgroup's directory (whose limit the caller has set), the solve
# runs inside it, so that the kernel holds it to that limit, mapped pages included.
set -uo pipefail
name=$1; shift
/usr/bin/time -v dfasolve breakthrough --width ${WIDTH:-5} --height ${HEIGHT:-6} --json --no-save --csv $name.csv --progress "$@" \
    > $name.json 2> $name.err &
timer=$!
sleep 1
solver=$(pgrep -P $timer | head -1)
[ -n "${CGROUP:-}" ] && echo $solver > $CGROUP/cgroup.procs
peak=0
while kill -0 $solver 2>/dev/null; do
    kib=$(awk '/^(RssAnon|RssShmem):/ {s += $2} END {print s + 0}' /proc/$solver/status 2>/dev/null)
    [ -n "$kib" ] && [ "$kib" -gt "$peak" ] && peak=$kib
    sleep 1
done
wait $timer
echo "$peak KiB unreclaimable peak (RssAnon + RssShmem, sampled every second)" > $name.anon
