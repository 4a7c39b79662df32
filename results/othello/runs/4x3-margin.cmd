dfasolve othello --width 4 --height 3 --reachable --margin --json --no-save --max-memory 16
