dfasolve breakthrough --width 7 --height 4 --strong --json --no-save --csv results/breakthrough/runs/7x4.csv --checkpoint checkpoints/breakthrough-7x4-strong
