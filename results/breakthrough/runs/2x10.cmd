dfasolve breakthrough --width 2 --height 10 --strong --json --no-save --csv results/breakthrough/runs/2x10.csv --checkpoint checkpoints/breakthrough-2x10-strong
