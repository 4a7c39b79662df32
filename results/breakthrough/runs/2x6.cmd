dfasolve breakthrough --width 2 --height 6 --strong --json --no-save --csv results/breakthrough/runs/2x6.csv --checkpoint checkpoints/breakthrough-2x6-strong
