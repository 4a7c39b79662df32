dfasolve breakthrough --width 8 --height 6 --strong --json --no-save --csv results/breakthrough/runs/8x6.csv --checkpoint checkpoints/breakthrough-8x6-strong
