dfasolve breakthrough --width 5 --height 7 --strong --json --no-save --csv results/breakthrough/runs/5x7.csv --checkpoint checkpoints/breakthrough-5x7-strong
