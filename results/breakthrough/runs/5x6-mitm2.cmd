dfasolve breakthrough --width 5 --height 6 --json --csv run.csv --out bt-5x6-mitm5.dfas --checkpoint ckpt
