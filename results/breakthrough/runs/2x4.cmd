dfasolve breakthrough --width 2 --height 4 --strong --json --no-save --csv results/breakthrough/runs/2x4.csv --checkpoint checkpoints/breakthrough-2x4-strong
