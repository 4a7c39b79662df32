#!/usr/bin/env bash
# Wait for the 5 v 4 job of run-fresh.sh (build 623e55a) to end, then go on with run-fresh-2.sh
# (build 51eca9c: the count's lookups put in order by a counting sort; the same tables).
cd "$(dirname "$0")"
while pgrep -f "dfasolve-623e55a explicit" > /dev/null; do sleep 20; done
exec ./run-fresh-2.sh
