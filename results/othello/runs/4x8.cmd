dfasolve othello --width 4 --height 8 --differences . --json --progress --max-memory 20
