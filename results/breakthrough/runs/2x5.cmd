dfasolve breakthrough --width 2 --height 5 --strong --json --no-save --csv results/breakthrough/runs/2x5.csv --checkpoint checkpoints/breakthrough-2x5-strong
