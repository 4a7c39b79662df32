dfasolve breakthrough --width 5 --height 8 --strong --json --no-save --csv results/breakthrough/runs/5x8.csv --checkpoint checkpoints/breakthrough-5x8-strong
