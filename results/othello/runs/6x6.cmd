dfasolve othello --width 6 --height 6 --differences . --json --progress --max-memory 20
