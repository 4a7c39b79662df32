dfasolve othello --width 8 --height 4 --differences . --json --progress --max-memory 20
