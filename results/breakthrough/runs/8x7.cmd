dfasolve breakthrough --width 8 --height 7 --strong --json --no-save --csv results/breakthrough/runs/8x7.csv --checkpoint checkpoints/breakthrough-8x7-strong
