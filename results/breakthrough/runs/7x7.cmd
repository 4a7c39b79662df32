dfasolve breakthrough --width 7 --height 7 --strong --json --no-save --csv results/breakthrough/runs/7x7.csv --checkpoint checkpoints/breakthrough-7x7-strong
