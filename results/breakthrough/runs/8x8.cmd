dfasolve breakthrough --width 8 --height 8 --strong --json --no-save --csv results/breakthrough/runs/8x8.csv --checkpoint checkpoints/breakthrough-8x8-strong
