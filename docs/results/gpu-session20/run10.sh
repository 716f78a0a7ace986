#!/bin/bash
# Session 20, device run 10, on an H100 (kind nvidia-h100-x1): the
# committed state (e40d3ab) on a second GPU. The histeq checker on the GPU
# (every path), then bench_histeq and bench.py with the apply in one
# launch and in its own (GST_CL_HISTEQ_ONE_LAUNCH=0), in turns.
# Everything into one file.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run10}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt
  grep -E " one hist" /tmp/check-histeq.txt
  for pass in 1 2; do
    for one in 1 0; do
      for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
        echo "=== pass $pass ONE_LAUNCH=$one bench_histeq $sz"
        GST_CL_HISTEQ_ONE_LAUNCH=$one timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*fused"
      done
    done
  done
  for one in 1 0 1 0; do
    echo "=== bench.py GPU, ONE_LAUNCH=$one ($(date +%T))"
    GST_CL_HISTEQ_ONE_LAUNCH=$one GST_PLUGIN_PATH=$PWD/build-dev timeout 200 python3 bench/bench.py --build-dir build-dev \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq,blur+sobel+histeq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$one 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run10.out" 2>&1
