#!/bin/bash
# Session 17, device run 1: clblur's CPU kernel (blur_fixed_rows) with the
# row's end chunks by window loads and constant shuffles (build-dev/) against
# 00a23cb (build-old/). The blur checker on every device (NVIDIA GPU and
# PoCL on 16 Xeon cores: the fixed variant runs the new ends there), then
# the fixed kernel's times on PoCL at 640x480 and 1080p, 2 and 16 workers,
# old and new taking turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L; nproc; grep -m1 "model name" /proc/cpuinfo
  echo "=== blur checker, every variant, every device ($(date +%T))"
  timeout 400 build-dev/tests/check_blur_kernels > "$out/blur-check.txt" 2>&1
  echo "exit $?"; tail -1 "$out/blur-check.txt"; grep -c "fixed (" "$out/blur-check.txt"; grep -m5 FAIL "$out/blur-check.txt"
  for t in 2 16; do
    for size in "640 480" "1920 1080"; do
      for r in 1 2 3; do
        for b in build-old build-dev; do
          echo "=== $b POCL_MAX_PTHREAD_COUNT=$t $size round $r"
          POCL_AFFINITY=1 POCL_MAX_PTHREAD_COUNT=$t KERNELCHECK_DEVICES=cpu timeout 60 $b/bench/bench_kernels $size 1.1 500 fixed 5 2>&1 | grep -E "fixed|device"
        done
      done
    done
  done
} > "$out/run1.log" 2>&1
cat "$out/run1.log"
