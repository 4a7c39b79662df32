#!/bin/sh
# The fresh-clone walk-through of the README (issue 65): clone the repository, run the
# README's commands in the order it gives them (the two set-up commands, the tour's code
# blocks, the stand-ins of its table and the commands after it), then check the page in
# headless Chromium (results/serve/check.sh; it needs chromium and npm). Prints each
# command's exit status, wall time and last lines. The real jobs of the stand-ins table, and
# stand-ins said to take minutes, are listed, not run (WALK_ALL=1 runs the stand-ins too).
#
#   sh results/walkthrough/walkthrough.sh [REPOSITORY] > results/walkthrough/output.txt
#
# REPOSITORY defaults to this checkout: a clone sees its committed state only.
set -eu
repo=${1:-$(git rev-parse --show-toplevel)}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
server=
git clone --quiet "$repo" "$work/dfasolve"
cd "$work/dfasolve"
echo "walk-through of $(git log -1 --format='%h %s') on $(nproc) cores"
echo

# The commands in README order: "run|list", the stated time and the command, separated by
# the unit separator (a tab would merge with an empty time).
python3 - README.md > "$work/commands" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
section = text[text.index("## Two commands on a fresh machine"):text.index("## Position notation")]
in_block = False
for line in section.splitlines():
    if line.startswith("```"):
        in_block = not in_block
    elif in_block and line.strip():
        print(f"run\x1f\x1f{line.partition('  #')[0].strip()}")
    elif line.startswith("| `dfasolve"):
        real, real_time, stand_in, stand_in_time = [c.strip() for c in line.strip("|").split("|")]
        print(f"list\x1f{real_time}\x1f{re.search(r'`([^`]*)`', real).group(1)}")
        print(f"run\x1f{stand_in_time}\x1f{stand_in.strip('`')}")
    else:
        for command in re.findall(r"`(dfasolve (?:query|puzzles|positions) t3 [^`]*)`", line):
            print(f"run\x1f\x1f{command}")
PY

failed=0
run() {
    started=$(date +%s.%N)
    status=0
    sh -c "$1" > "$work/out" 2>&1 < /dev/null || status=$?
    printf '$ %s\n  exit %s, %.1f s\n' "$1" "$status" "$(echo "$(date +%s.%N) - $started" | bc)"
    # The outcome is at the end (a build's lines come first).
    tail -n 5 "$work/out" | cut -c1-160 | sed 's/^/  | /'
    echo
    [ "$status" -eq 0 ] || failed=$((failed + 1))
}

# `serve` runs until stopped: started, asked for its page, stopped.
serve() {
    sh -c "$1" > "$work/serve.out" 2>&1 &
    server=$!
    sleep 2
    printf '$ %s\n' "$1"
    if curl -fsS http://127.0.0.1:8080/ > "$work/page.html"; then
        echo "  served; the page has the start drawn: $(grep -c '<pre id="board">.' "$work/page.html") board"
    else
        echo "  no page"
        failed=$((failed + 1))
    fi
    head -n 1 "$work/serve.out" | sed 's/^/  | /'
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
    echo
}

export PATH="$work/dfasolve/target/release:$PATH"
while IFS="$(printf '\037')" read -r what said command; do
    case "$what:$said" in
        list:*) printf '$ %s\n  listed, not run (%s)\n\n' "$command" "$said" ;;
        *:*min*|*:*" h"*) if [ "${WALK_ALL:-}" = 1 ]; then run "$command"; else
            printf '$ %s\n  listed, not run (%s; WALK_ALL=1 runs it)\n\n' "$command" "$said"; fi ;;
        *) case "$command" in
               "dfasolve serve "*) serve "$command" ;;
               *) run "$command" ;;
           esac ;;
    esac
done < "$work/commands"

echo "the page in headless Chromium:"
run "sh results/serve/check.sh"
echo "$failed command(s) failed"
[ "$failed" -eq 0 ]
