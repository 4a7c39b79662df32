dfasolve othello --width 5 --height 4 --reachable --margin --json --no-save --max-memory 16
