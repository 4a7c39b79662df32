dfasolve breakthrough --width 8 --height 4 --strong --json --no-save --csv results/breakthrough/runs/8x4.csv --checkpoint checkpoints/breakthrough-8x4-strong
