dfasolve breakthrough --width 3 --height 9 --strong --json --no-save --csv results/breakthrough/runs/3x9.csv --checkpoint checkpoints/breakthrough-3x9-strong
