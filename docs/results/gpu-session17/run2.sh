#!/bin/bash
# Session 17, device run 2: clblur's CPU kernel with inner chunks in pairs
# (build-dev/, 638d552) against the end chunks alone (build-old/, d5a2e13).
# The blur checker's fixed variant on every device (the pairs run on PoCL
# 5.0 with the Xeon's AVX-512), then the fixed kernel's times on PoCL at
# 640x480 and 1080p, 2 and 16 workers, taking turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L; nproc; grep -m1 "model name" /proc/cpuinfo
  for fxw in "" 16; do
    echo "=== blur checker, fixed, every device, GST_CL_BLUR_FXW='$fxw' ($(date +%T))"
    GST_CL_BLUR_FXW=$fxw timeout 300 build-dev/tests/check_blur_kernels fixed > "$out/blur-check-fixed$fxw.txt" 2>&1
    echo "exit $?"; tail -1 "$out/blur-check-fixed$fxw.txt"; grep -m5 FAIL "$out/blur-check-fixed$fxw.txt"
  done
  for t in 2 16; do
    for size in "640 480" "1920 1080"; do
      for r in 1 2 3; do
        for b in build-old build-dev; do
          echo "=== $b POCL_MAX_PTHREAD_COUNT=$t $size round $r"
          POCL_AFFINITY=1 POCL_MAX_PTHREAD_COUNT=$t timeout 60 $b/bench/bench_kernels $size 1.1 500 fixed 5 2>&1 | grep -E "cpu-.* fixed"
        done
      done
    done
  done
} > "$out/run2.log" 2>&1
cat "$out/run2.log"
