dfasolve breakthrough --width 2 --height 8 --strong --json --no-save --csv results/breakthrough/runs/2x8.csv --checkpoint checkpoints/breakthrough-2x8-strong
