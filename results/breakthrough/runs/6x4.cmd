dfasolve breakthrough --width 6 --height 4 --strong --json --no-save --csv results/breakthrough/runs/6x4.csv --checkpoint checkpoints/breakthrough-6x4-strong
