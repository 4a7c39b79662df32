dfasolve othello --width 3 --height 3 --reachable --margin --json --no-save --max-memory 16
