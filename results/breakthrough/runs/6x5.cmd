dfasolve breakthrough --width 6 --height 5 --strong --json --no-save --csv results/breakthrough/runs/6x5.csv --checkpoint checkpoints/breakthrough-6x5-strong
