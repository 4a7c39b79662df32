dfasolve breakthrough --width 3 --height 8 --strong --json --no-save --csv results/breakthrough/runs/3x8.csv --checkpoint checkpoints/breakthrough-3x8-strong
