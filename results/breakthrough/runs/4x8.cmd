dfasolve breakthrough --width 4 --height 8 --strong --json --no-save --csv results/breakthrough/runs/4x8.csv --checkpoint checkpoints/breakthrough-4x8-strong
