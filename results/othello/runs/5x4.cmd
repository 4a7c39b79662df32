dfasolve othello --width 5 --height 4 --reachable --json --no-save --csv results/othello/runs/5x4.csv --max-memory 16
