dfasolve othello --width 6 --height 5 --differences . --json --progress --max-memory 20
