dfasolve othello --width 5 --height 6 --differences . --json --progress --max-memory 20
