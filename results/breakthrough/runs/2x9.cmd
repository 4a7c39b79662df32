dfasolve breakthrough --width 2 --height 9 --strong --json --no-save --csv results/breakthrough/runs/2x9.csv --checkpoint checkpoints/breakthrough-2x9-strong
