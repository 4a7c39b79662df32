dfasolve othello --width 4 --height 4 --reachable --json --no-save --csv results/othello/runs/4x4.csv --max-memory 16
