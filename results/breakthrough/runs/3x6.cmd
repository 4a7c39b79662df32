dfasolve breakthrough --width 3 --height 6 --strong --json --no-save --csv results/breakthrough/runs/3x6.csv --checkpoint checkpoints/breakthrough-3x6-strong
