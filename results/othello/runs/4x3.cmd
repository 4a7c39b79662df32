dfasolve othello --width 4 --height 3 --reachable --json --no-save --csv results/othello/runs/4x3.csv --max-memory 16
