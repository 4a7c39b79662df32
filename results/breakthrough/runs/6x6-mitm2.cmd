dfasolve breakthrough --width 6 --height 6 --json --csv run.csv --out bt-6x6.dfas --checkpoint ckpt --max-memory 14
