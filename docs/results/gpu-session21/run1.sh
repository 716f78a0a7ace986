#!/bin/bash
# Session 21, device run 1: histeq_equalize_c1 keeping its slice in
# registers (build-dev) against c3cc142 (build-base). The histeq checker
# on the GPU (every path; path `one` with 1 and 8 groups a compute unit),
# two planted errors (plant-bin/, built from this tree with one line
# changed, not kept):
#   check_keep_xor     the kept chunks' output ^ 1: must fail
#   check_no_publish   the LUT's flag never published: every waiter gives
#                      up and the LUT's maker claims every slice and reads
#                      it again: must pass
# then bench_histeq and bench.py (clhisteq and the 3-element chain
# against the floor), base and dev in turns. Everything into one file.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt
  for g in 1 8; do
    echo "=== check path one, EQ_GROUPS=$g"
    GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m3 FAIL /tmp/check-g.txt
  done
  for p in keep_xor no_publish; do
    echo "=== planted: $p ($(date +%T))"
    HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 plant-bin/check_$p > /tmp/check-$p.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-$p.txt; grep -m3 FAIL /tmp/check-$p.txt
  done
  for pass in 1 2; do
    for b in base dev; do
      for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
        echo "=== pass $pass $b bench_histeq $sz"
        timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|fused"
      done
    done
  done
  for sz in "1920 1080 50" "3840 2160 30"; do
    echo "=== no_publish bench_histeq $sz"
    timeout 60 plant-bin/bench_no_publish $sz gpu 2>&1 | grep -E "GRAY8.*global smooth=0"
  done
  for b in base dev base dev; do
    echo "=== bench.py GPU, $b ($(date +%T))"
    GST_PLUGIN_PATH=$PWD/build-$b timeout 200 python3 bench/bench.py --build-dir build-$b \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq,blur+sobel+histeq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$b 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run1.out" 2>&1
