cd $RUNS/bt-5x6-spill && CGROUP=<memory cgroup limited to 3 GiB> PATH=$PWD:$PATH results/breakthrough/runs/levers/spill.sh spilled-3g --max-memory 2.9 --spill spill   # build 539b0d3 (queue2.sh)
