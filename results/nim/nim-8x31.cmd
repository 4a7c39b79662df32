/usr/bin/time -v dfasolve nim --heaps 8 --tokens 31 --no-save --csv results/nim/nim-8x31.csv > results/nim/nim-8x31.txt 2> results/nim/nim-8x31.time
