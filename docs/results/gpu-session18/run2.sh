#!/bin/bash
# Session 18, device run 2: as run 1 after the slices were capped at 32K
# pixels (at least 4 a group): the checker's one-launch path on every
# device, then clhisteq one launch against two on PoCL, 2 and 16 workers,
# 480p, 1080p and 4K, taking turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache GST_PLUGIN_PATH=$PWD/build-dev
{ echo "=== machine"; nvidia-smi -L; nproc; grep -m1 "model name" /proc/cpuinfo
  echo "=== histeq checker, one-launch path, every device ($(date +%T))"
  HISTEQ_CHECK_PATHS=serial-one timeout 400 build-dev/tests/check_histeq_kernels > "$out/histeq-check.txt" 2>&1
  echo "exit $?"; tail -1 "$out/histeq-check.txt"; grep "serial-one" "$out/histeq-check.txt" | head -20; grep -m5 FAIL "$out/histeq-check.txt"
  for t in 2 16; do
    for size in "640 480" "1920 1080" "3840 2160"; do
      set -- $size
      for r in 1 2 3; do
        for one in 1 0; do
          echo "=== one-launch=$one POCL_MAX_PTHREAD_COUNT=$t $size round $r"
          GST_CL_HISTEQ_ONE_LAUNCH=$one POCL_AFFINITY=1 POCL_MAX_PTHREAD_COUNT=$t GST_CL_DEVICE=cpu \
            timeout 60 build-dev/bench/bench_pipeline --format GRAY8 --width $1 --height $2 \
            --frames 500 --warmup 10 --seconds 0.3 identity "clhisteq device=cpu" 2>&1 | cut -c1-90
        done
      done
    done
  done
} > "$out/run2.log" 2>&1
cat "$out/run2.log"
