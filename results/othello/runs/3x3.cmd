dfasolve othello --width 3 --height 3 --reachable --json --no-save --csv results/othello/runs/3x3.csv --max-memory 16
