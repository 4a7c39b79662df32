dfasolve breakthrough --width 4 --height 4 --strong --json --no-save --csv results/breakthrough/runs/4x4.csv --checkpoint checkpoints/breakthrough-4x4-strong
