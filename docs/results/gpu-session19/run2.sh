#!/bin/bash
# Session 19, device run 2: clhisteq's GPU kernels with aligned 16-byte
# (and 4-byte) accesses where the planes allow (NVIDIA makes byte loads of
# a vload of bytes), against the base (HEAD 47c9144, build-base), with the
# applies' groups (GST_CL_HISTEQ_APPLY_ROWS) and local table
# (GST_CL_HISTEQ_APPLY_LOCAL) either way. Checker first.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  for c in "1:32" "0:0"; do
    IFS=: read l r <<< "$c"
    echo "=== check_histeq_kernels, GPU, APPLY_LOCAL=$l APPLY_ROWS=$r ($(date +%T))"
    GST_CL_HISTEQ_APPLY_LOCAL=$l GST_CL_HISTEQ_APPLY_ROWS=$r KERNELCHECK_DEVICES=gpu \
      timeout 150 build-dev/tests/check_histeq_kernels > "$out/check-$l-$r.txt" 2>&1
    echo "exit $?"; tail -1 "$out/check-$l-$r.txt"; grep -m5 FAIL "$out/check-$l-$r.txt"
  done
} 2>&1 | tee "$out/check.log"
cfgs=("base:0:0" "dev:0:0" "dev:1:0" "dev:0:32" "dev:1:32")
for pass in 1 2; do
  for c in "${cfgs[@]}"; do
    IFS=: read b l r <<< "$c"
    for sz in "1920 1080 100" "3840 2160 60"; do
      echo "=== pass $pass build-$b APPLY_LOCAL=$l APPLY_ROWS=$r bench_histeq $sz"
      GST_CL_HISTEQ_APPLY_LOCAL=$l GST_CL_HISTEQ_APPLY_ROWS=$r timeout 60 \
        build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|fused|RGBA.*old"
    done
  done
done 2>&1 | tee "$out/kernels.log"
for c in "base:0:0" "dev:0:0" "base:0:0" "dev:0:0"; do
  IFS=: read b l r <<< "$c"
  echo "=== bench.py GPU, build-$b APPLY_LOCAL=$l APPLY_ROWS=$r ($(date +%T))"
  GST_CL_HISTEQ_APPLY_LOCAL=$l GST_CL_HISTEQ_APPLY_ROWS=$r GST_PLUGIN_PATH=$PWD/build-$b \
    timeout 100 python3 bench/bench.py --build-dir build-$b --devices gpu --sizes 1080p,4K \
    --items clhisteq,clhisteq-clahe,blur+sobel+histeq --kinds ours,floor --reps 2 \
    --out "$out/bench-$b-$l-$r" > "$out/bench-$b-$l-$r.log" 2>&1
  echo "exit $?"; sed -n '/^## Headline/,/^$/p' "$out/bench-$b-$l-$r.log" | cut -c1-60,150-175
done 2>&1 | tee "$out/bench.log"
