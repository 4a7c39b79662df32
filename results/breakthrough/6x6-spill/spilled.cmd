# Lever 2 on 6x6: the meet in the middle with its finished sets spilled, checkpointed. In $RUNS/bt-6x6-spill/,
# beside the build 56f2775 copied there as ./dfasolve (rerun it to resume):
WIDTH=6 HEIGHT=6 PATH=$PWD:$PATH results/breakthrough/runs/levers/spill.sh spilled.N --max-memory 20 --spill spill --checkpoint ckpt
# which runs dfasolve breakthrough --width 6 --height 6 --json --no-save --csv spilled.N.csv --progress --max-memory 20 --spill spill --checkpoint ckpt
# under /usr/bin/time -v. Attempt 1 from 2026-11-29 04:18, from nothing; beside it a niced cargo test --release build of
# the integration tests (04:21-04:26, forward plies 16-20); killed from outside 47 at 05:14 after backup ply 35.
# Attempt 2 from 05:35, alone, resumed from ckpt/; stopped with pkill -f "^dfasolve breakthrough --width 6 --height 6"
# at 06:23, in ply 32. spilled.2.rss.log was sampled beside it from 06:00 with
#   while kill -0 $PID; do echo "$(date +%T) $(awk '/^(RssAnon|RssShmem|RssFile|VmHWM):/ {printf "%s %s ", $1, $2}' /proc/$PID/status)"; sleep 10; done
