/usr/bin/time -v dfasolve nim --heaps 10 --tokens 31 --no-save --csv results/nim/nim-10x31.csv > results/nim/nim-10x31.txt 2> results/nim/nim-10x31.time
