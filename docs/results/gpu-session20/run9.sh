#!/bin/bash
# Session 20, device run 9: the frame-wide step's equalisation map as
# prefix sums in runs of 16 (4 barriers, not 16), and not computed twice
# with smoothing in global mode (lut_body () takes cut_body ()'s), in
# build-dev, against 4712594 (build-base). The histeq checker on the GPU,
# then bench_histeq and bench.py taking turns. Everything into one file.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run9}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt
  grep "temporal" /tmp/check-histeq.txt
  for pass in 1 2; do
    for b in base dev; do
      for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
        echo "=== pass $pass build-$b bench_histeq $sz"
        timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|fused"
      done
    done
  done
  for b in base dev base dev; do
    echo "=== bench.py GPU, build-$b ($(date +%T))"
    GST_PLUGIN_PATH=$PWD/build-$b timeout 200 python3 bench/bench.py --build-dir build-$b \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq,clhisteq-clahe,blur+sobel+histeq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$b 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run9.out" 2>&1
