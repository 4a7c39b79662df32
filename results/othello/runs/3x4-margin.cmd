dfasolve othello --width 3 --height 4 --reachable --margin --json --no-save --max-memory 16
