dfasolve breakthrough --width 3 --height 5 --strong --json --no-save --csv results/breakthrough/runs/3x5.csv --checkpoint checkpoints/breakthrough-3x5-strong
