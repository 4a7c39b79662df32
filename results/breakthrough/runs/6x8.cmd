dfasolve breakthrough --width 6 --height 8 --strong --json --no-save --csv results/breakthrough/runs/6x8.csv --checkpoint checkpoints/breakthrough-6x8-strong
