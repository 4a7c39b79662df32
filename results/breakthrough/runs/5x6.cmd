dfasolve breakthrough --width 5 --height 6 --strong --json --no-save --csv results/breakthrough/runs/5x6.csv --checkpoint checkpoints/breakthrough-5x6-strong
