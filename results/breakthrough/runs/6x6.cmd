dfasolve breakthrough --width 6 --height 6 --strong --json --no-save --csv results/breakthrough/runs/6x6.csv --checkpoint checkpoints/breakthrough-6x6-strong
