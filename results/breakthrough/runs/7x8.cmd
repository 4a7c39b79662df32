dfasolve breakthrough --width 7 --height 8 --strong --json --no-save --csv results/breakthrough/runs/7x8.csv --checkpoint checkpoints/breakthrough-7x8-strong
