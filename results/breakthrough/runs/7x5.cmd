dfasolve breakthrough --width 7 --height 5 --strong --side-mirror never --json --no-save --csv results/breakthrough/runs/7x5.csv --checkpoint checkpoints/breakthrough-7x5-strong
