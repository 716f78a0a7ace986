#!/bin/bash
# Session 30, device run 5: the rows run 4's budget skipped (`device-run.sh
# bench` measures 1080p, then 4K, then 480p, in 240 s): bench.py with the
# same settings on both devices for 4K NV12, then 480p.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== bench.py 4K NV12 ($(date +%T))"
  timeout 200 python3 bench/bench.py --sizes 4K --formats NV12 --reps 2 --seconds 0.1 \
      --budget 150 --out "$out/4k-nv12" 2>&1
  echo "exit $?"
  echo "=== bench.py 480p ($(date +%T))"
  timeout 230 python3 bench/bench.py --sizes 480p --reps 2 --seconds 0.1 \
      --budget 180 --out "$out/480p" 2>&1
  echo "exit $?"
} > "$out/run5.log" 2>&1
sed -n '/^## Goals/,/^# nproc/p' "$out/run5.log"
