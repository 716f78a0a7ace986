#!/bin/bash
# Session 20, device run 7: why bench.py shows no 4K gain from the one
# launch when bench_histeq does. bench_pipeline under clprof (as bench.py
# runs it), clhisteq alone at 4K and 1080p GRAY8, with the apply in one
# launch and in its own, in turns; every kernel's and transfer's device
# time per run (the JSON lines). Then bench_histeq at 4K the same two ways.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run7}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ nvidia-smi -L
for rep in 1 2; do
  for one in 1 0; do
    for sz in "3840 2160" "1920 1080"; do
      set -- $sz
      for m in "clhisteq device=gpu" "clhisteq device=gpu smoothing=1"; do
        echo "=== rep $rep ONE_LAUNCH=$one $1x$2 $m"
        GST_CL_HISTEQ_ONE_LAUNCH=$one GST_PLUGIN_PATH=$PWD/build-dev LD_PRELOAD=$PWD/build-dev/bench/libclprof.so \
          timeout 60 build-dev/bench/bench_pipeline --format GRAY8 --width $1 --height $2 --frames 500 --warmup 10 --seconds 0.3 "$m" 2>&1 | grep "^{"
      done
    done
  done
done
for one in 1 0 1 0; do
  echo "=== ONE_LAUNCH=$one bench_histeq 3840 2160"
  GST_CL_HISTEQ_ONE_LAUNCH=$one timeout 60 build-dev/bench/bench_histeq 3840 2160 60 gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
done; } > "$out/run7.out" 2>&1
