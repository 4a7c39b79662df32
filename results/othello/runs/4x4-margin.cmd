dfasolve othello --width 4 --height 4 --reachable --margin --json --no-save --max-memory 16
