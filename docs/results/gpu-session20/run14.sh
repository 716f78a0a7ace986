#!/bin/bash
# Session 20, device run 14: run 13 again after LUT_CHUNK16 (the applies'
# 16-byte step in one macro; no change
# in what runs). The histeq checker on the GPU, then bench_histeq once.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run14}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt
  for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
    echo "=== bench_histeq $sz"
    timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
  done
} > "$out/run14.out" 2>&1
