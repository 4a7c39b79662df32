dfasolve othello --width 4 --height 5 --reachable --json --no-save --csv results/othello/runs/4x5.csv --max-memory 16
