dfasolve breakthrough --width 4 --height 5 --strong --json --no-save --csv results/breakthrough/runs/4x5.csv --checkpoint checkpoints/breakthrough-4x5-strong
