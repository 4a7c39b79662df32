dfasolve breakthrough --width 5 --height 5 --strong --json --no-save --csv results/breakthrough/runs/5x5.csv --checkpoint checkpoints/breakthrough-5x5-strong
