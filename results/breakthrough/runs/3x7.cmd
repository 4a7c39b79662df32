dfasolve breakthrough --width 3 --height 7 --strong --json --no-save --csv results/breakthrough/runs/3x7.csv --checkpoint checkpoints/breakthrough-3x7-strong
