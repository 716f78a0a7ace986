#!/bin/bash
# Session 40, run 3: why bench_histeq and bench.py read clhisteq's GPU
# kernel differently (session 39: 0.013-0.014 ms at 1080p against
# 0.011-0.012). bench_histeq waits for each frame before queuing the next;
# BENCH_HISTEQ_QUEUED=1 (new) queues them back to back, as frames flow in
# bench.py's pipelines. Two passes, in turns: bench_histeq waiting and
# queued at 1080p and 4K (the floors line and the global GRAY8 noise rows
# with smoothing 8, the element's default), then bench.py's clhisteq
# kernel and floor at 1080p and 4K GRAY8. Last, bench/start-time.sh with
# this build and session 39's (build/oldgst) in every mode.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run3.log") 2>&1
export GST_PLUGIN_PATH=$PWD/build
export GST_CL_CACHE_DIR=/tmp/clcache-r3
for pass in 1 2; do
  for size in "1920 1080" "3840 2160"; do
    for q in wait queued; do
      echo "=== pass $pass $size $q ($(date +%T))"
      env $( [ $q = queued ] && echo BENCH_HISTEQ_QUEUED=1 ) \
        timeout 120 build/bench/bench_histeq $size 300 gpu 2>&1 |
        grep -E "floors|GRAY8 +noise global smooth=8" -A1 | grep -v "^--"
    done
  done
  echo "=== bench.py clhisteq pass $pass ($(date +%T))"
  timeout 150 python3 bench/bench.py --build-dir build --devices gpu \
    --sizes 1080p,4K --formats GRAY8 --items clhisteq --kinds ours,floor \
    --reps 2 --out "$out/b$pass" > "$out/bench$pass.txt" 2>&1
  echo "exit $?"
  awk -F, '$7=="ours"||$7=="floor"{printf "  %s %s %s %s ms %s kernel_ms %s\n", $2, $8, $3, $6, $10, $13}' "$out/b$pass/bench.csv"
done
echo "=== start-time ($(date +%T))"
ROUNDS=2 bench/start-time.sh "cpu auto gpu" build build/oldgst
echo "=== done $(date +%T)"
