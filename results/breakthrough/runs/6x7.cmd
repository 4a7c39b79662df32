dfasolve breakthrough --width 6 --height 7 --strong --json --no-save --csv results/breakthrough/runs/6x7.csv --checkpoint checkpoints/breakthrough-6x7-strong
