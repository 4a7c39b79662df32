dfasolve breakthrough --width 2 --height 7 --strong --json --no-save --csv results/breakthrough/runs/2x7.csv --checkpoint checkpoints/breakthrough-2x7-strong
