dfasolve breakthrough --width 8 --height 5 --strong --json --no-save --csv results/breakthrough/runs/8x5.csv --checkpoint checkpoints/breakthrough-8x5-strong
