dfasolve breakthrough --width 7 --height 6 --strong --json --no-save --csv results/breakthrough/runs/7x6.csv --checkpoint checkpoints/breakthrough-7x6-strong
