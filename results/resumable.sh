#!/usr/bin/env bash
# A long solve as one resumable job, with its figures measured from outside:
#   results/resumable.sh RUN_DIR -- dfasolve GAME ... --checkpoint ckpt [...]
# runs the command in RUN_DIR (made if missing) under /usr/bin/time -v as attempt N
# (attempt.N.{out,err,time}), samples the memory the kernel cannot drop (RssAnon + RssShmem),
# VmHWM, the disk the run directory's named files take, and the disk of the unnamed files the
# solver holds mapped (its spilled sets: `du` does not see them) every 30 s into
# attempt.N.samples (one row each: time, KiB, KiB, KiB, KiB), and when an
# attempt fails it starts the next one, which resumes from the checkpoints, for as long as the
# attempts make progress (the checkpoint files change). Rerun the same line to resume after a
# reboot. The solver's PID is in RUN_DIR/solver.pid: stop the run with kill "$(cat solver.pid)".
set -uo pipefail
dir=$1; shift
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 RUN_DIR -- COMMAND..." >&2; exit 2; }
mkdir -p "$dir" && cd "$dir" || exit 2
# Progress is a change in what the solver keeps (checkpoints, journals, outputs): the
# script's own files and the listing's "total" lines do not count.
progress() {
    find . -type f ! -name 'attempt*' ! -name solver.pid -printf '%p %s %T@\n' 2>/dev/null | sort | md5sum
}
# KiB of the unnamed (deleted) files process $1 maps, each counted once.
unnamed_kib() {
    for f in /proc/"$1"/map_files/*; do
        case $(readlink "$f" 2>/dev/null) in *' (deleted)') stat -L -c '%i %s' "$f" 2>/dev/null ;; esac
    done | sort -u | awk '{ s += $2 } END { printf "%d", s / 1024 }'
}
failures=0
while :; do
    n=1; while [ -e attempt.$n.err ]; do n=$((n + 1)); done
    before=$(progress)
    echo "$(date -u +%FT%TZ) attempt $n: $*" >> attempts.log
    /usr/bin/time -v -o attempt.$n.time "$@" > attempt.$n.out 2> attempt.$n.err &
    timer=$!
    sleep 1
    solver=$(pgrep -P $timer | head -1)
    echo "$solver" > solver.pid
    while kill -0 "$solver" 2>/dev/null; do
        mem=$(awk '/^(RssAnon|RssShmem):/ {s += $2} /^VmHWM:/ {h = $2} END {printf "%d %d", s, h}' /proc/$solver/status 2>/dev/null)
        echo "$(date -u +%s) ${mem:-0 0} $(du -sk . 2>/dev/null | cut -f1) $(unnamed_kib "$solver")" >> attempt.$n.samples
        sleep 30
    done
    wait $timer; rc=$?
    echo "$(date -u +%FT%TZ) attempt $n exited $rc" >> attempts.log
    [ $rc -eq 0 ] && exit 0
    if [ "$(progress)" = "$before" ]; then failures=$((failures + 1)); else failures=0; fi
    [ $failures -ge 2 ] && { echo "two attempts in a row made no progress; see attempt.$n.err" >&2; exit $rc; }
    # Stopped from outside (kill, reboot): do not start again by ourselves.
    [ $rc -ge 128 ] && exit $rc
done
