dfasolve breakthrough --width 4 --height 7 --strong --json --no-save --csv results/breakthrough/runs/4x7.csv --checkpoint checkpoints/breakthrough-4x7-strong
