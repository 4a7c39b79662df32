dfasolve breakthrough --width 10 --height 4 --strong --json --no-save --csv results/breakthrough/runs/10x4.csv --checkpoint checkpoints/breakthrough-10x4-strong
