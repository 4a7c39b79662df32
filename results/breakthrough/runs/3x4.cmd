dfasolve breakthrough --width 3 --height 4 --strong --json --no-save --csv results/breakthrough/runs/3x4.csv --checkpoint checkpoints/breakthrough-3x4-strong
