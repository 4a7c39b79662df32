dfasolve breakthrough --width 5 --height 4 --strong --json --no-save --csv results/breakthrough/runs/5x4.csv --checkpoint checkpoints/breakthrough-5x4-strong
