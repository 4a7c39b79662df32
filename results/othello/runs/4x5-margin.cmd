dfasolve othello --width 4 --height 5 --reachable --margin --json --no-save --max-memory 16
