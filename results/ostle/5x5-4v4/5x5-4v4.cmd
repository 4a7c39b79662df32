DFASOLVE_TRACE=1 /usr/bin/time -v timeout 85m dfasolve ostle --pieces 4 --lose-at 3 --json --csv run.csv --checkpoint ckpt --out ostle-4v4.dfas --max-memory 20
# build da6ae6d, 2026-11-25 17:17-18:42, stopped by the timeout in iteration 14 (exit 124); resumed at 18:43 from ckpt/ with the same command under 'timeout 17m'
