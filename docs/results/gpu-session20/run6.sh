#!/bin/bash
# Session 20, device run 6: the committed state (one launch a frame on
# GPUs, 4 histogram copies, at most one group per 8192 pixels). The
# histeq checker on the GPU (every path), two planted errors (plant-bin/,
# built from this tree with one line changed, not kept):
#   check_waiter_lut   the waiting groups' LUT ^ 0x80808080: must fail
#   check_no_publish   the LUT's flag never published, so every waiter
#                      gives up and the LUT's maker applies the whole
#                      frame: must pass (bench_no_publish: what it costs)
# then bench_histeq with the apply in one launch and in its own
# (GST_CL_HISTEQ_ONE_LAUNCH=0), and bench.py (clhisteq, CLAHE and the
# 3-element chain against the floor) the same two ways, in turns.
# Everything into one file.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt
  grep -E " (one|fused) hist" /tmp/check-histeq.txt
  for p in waiter_lut no_publish; do
    echo "=== planted: $p ($(date +%T))"
    HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 plant-bin/check_$p > /tmp/check-$p.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-$p.txt; grep -m3 FAIL /tmp/check-$p.txt
  done
  for pass in 1 2; do
    for one in 1 0; do
      for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
        echo "=== pass $pass ONE_LAUNCH=$one bench_histeq $sz"
        GST_CL_HISTEQ_ONE_LAUNCH=$one timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|fused"
      done
    done
  done
  for sz in "640 480 100" "1920 1080 50" "3840 2160 30"; do
    echo "=== no_publish bench_histeq $sz"
    timeout 60 plant-bin/bench_no_publish $sz gpu 2>&1 | grep -E "GRAY8.*global smooth=0"
  done
  for one in 1 0 1 0; do
    echo "=== bench.py GPU, ONE_LAUNCH=$one ($(date +%T))"
    GST_CL_HISTEQ_ONE_LAUNCH=$one GST_PLUGIN_PATH=$PWD/build-dev timeout 200 python3 bench/bench.py --build-dir build-dev \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq,clhisteq-clahe,blur+sobel+histeq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$one 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run6.out" 2>&1
