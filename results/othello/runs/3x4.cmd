dfasolve othello --width 3 --height 4 --reachable --json --no-save --csv results/othello/runs/3x4.csv --max-memory 16
