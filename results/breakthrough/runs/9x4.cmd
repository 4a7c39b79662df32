dfasolve breakthrough --width 9 --height 4 --strong --json --no-save --csv results/breakthrough/runs/9x4.csv --checkpoint checkpoints/breakthrough-9x4-strong
