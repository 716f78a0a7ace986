#!/bin/bash
# Session 36, device run 4: the early transfers under faults, and where
# the device idles now.
#  1. AUTO_GPU=0.0 tools/faults-gpu.sh gpu: the faults the chain must
#     report, the two it must absorb (an early upload's, an early
#     download's), device=auto's moves; clshim's objects alive at exit;
#  2. the queued 1080p GRAY8 chain's timeline (libclprof), defaults and
#     with both early transfers off, for bench/timeline_gaps.py.
# (As it first ran, the script's exit printed was grep's: see README.)
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out/tl"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
{
  echo "=== 1. faults $(date +%T)"
  AUTO_GPU=0.0 timeout 300 tools/faults-gpu.sh gpu > "$out/faults.txt" 2>&1
  echo "faults-gpu.sh exit $?"
  grep -v 'GStreamer-WARNING\|^$' "$out/faults.txt"
  echo "=== 2. timelines $(date +%T)"
  for m in 1 0; do
    GST_CL_EARLY_UPLOADS=$m GST_CL_EARLY_DOWNLOADS=$m CLPROF_TIMELINE=$out/tl/early$m.txt \
      LD_PRELOAD=build/bench/libclprof.so timeout 60 build/bench/bench_pipeline --touch \
      --format GRAY8 --width 1920 --height 1080 --frames 400 --warmup 20 "queue ! $CHAIN ! queue" |
      grep '^{' | cut -c1-120 | sed "s/^/early=$m /"
  done
  echo "=== done $(date +%T)"
} > "$out/run4.log" 2>&1
(cd "$out" && tar czf tl.tgz tl && rm -rf tl)
cat "$out/run4.log"
