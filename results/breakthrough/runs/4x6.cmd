dfasolve breakthrough --width 4 --height 6 --strong --json --no-save --csv results/breakthrough/runs/4x6.csv --checkpoint checkpoints/breakthrough-4x6-strong
