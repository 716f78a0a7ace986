#!/bin/bash
# Session 19, device run 3: the committed aligned accesses (09240d9) against
# the base (47c9144, build-base). The histeq and optflow checkers on the
# GPU, bench_histeq taking turns, then bench.py (kernel time and k/floor of
# clhisteq, CLAHE, the 3-element chain and cloptflow, whose
# output=passthrough copies the frame with of_copy), base and new in turn.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 150 build-dev/tests/check_histeq_kernels > "$out/check-histeq.txt" 2>&1
  echo "exit $?"; tail -1 "$out/check-histeq.txt"; grep -m5 FAIL "$out/check-histeq.txt"
  echo "=== check_optflow_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 150 build-dev/tests/check_optflow_kernels > "$out/check-optflow.txt" 2>&1
  echo "exit $?"; tail -1 "$out/check-optflow.txt"; grep -m5 FAIL "$out/check-optflow.txt"
} 2>&1 | tee "$out/check.log"
for pass in 1 2; do
  for b in base dev; do
    for sz in "1920 1080 100" "3840 2160 60"; do
      echo "=== pass $pass build-$b bench_histeq $sz"
      timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|fused|RGBA.*old"
    done
  done
done 2>&1 | tee "$out/kernels.log"
for b in base dev base dev; do
  echo "=== bench.py GPU, build-$b ($(date +%T))"
  GST_PLUGIN_PATH=$PWD/build-$b timeout 150 python3 bench/bench.py --build-dir build-$b \
    --devices gpu --sizes 1080p,4K --items clhisteq,clhisteq-clahe,blur+sobel+histeq,cloptflow \
    --kinds ours,floor --reps 2 --out "$out/bench-$b" > "$out/bench-$b-$(date +%s).log" 2>&1
  echo "exit $?"
done 2>&1 | tee "$out/bench.log"
for f in "$out"/bench-*.log; do
  echo "== $f"; grep -E "^  ours " "$f" | awk '{print $2, "kernel", $(NF-3), "k/floor", $(NF-2)}'
done | tee -a "$out/bench.log"
