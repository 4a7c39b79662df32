# In ~/dfasolve-runs/bt-10x4/ with build 56f2775 (2026-11-28 21:40-21:54, by results/handover-2026-11-28-13.sh; the
# 5x6 check of runs/levers/5x6-reachable.cmd ran beside the solve): 10x4 solved again to keep its solution, then checked.
/usr/bin/time -v dfasolve breakthrough --width 10 --height 4 --strong --json --out bt-10x4.dfas --checkpoint ckpt   # 806 s wall, 995 CPU-s, 1.51 GiB peak; the same solution as runs/10x4.json: the start a loss in 26 plies for the first player, 406,355,177,683,267,584 positions in 1,119,654,516 bytes of sets
/usr/bin/time -v dfasolve check bt-10x4.dfas --sample 300 > 10x4.check.txt   # 22.5 s, 1.24 GiB: passed, 16,200 positions
