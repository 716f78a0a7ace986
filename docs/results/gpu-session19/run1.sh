#!/bin/bash
# Session 19, device run 1: clhisteq's applies on the GPU. Before, the
# driver chose the work-groups (NULL local size) and every pixel read the
# table from global memory. Now (defaults on GPUs): groups of 8 x 32 items
# (GST_CL_HISTEQ_APPLY_ROWS) and the table in local memory
# (GST_CL_HISTEQ_APPLY_LOCAL). Checker with the defaults, then kernel times
# (bench_histeq) taking turns over the settings, then bench.py's k/floor.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
B=${B:-build-dev}
export GST_CL_CACHE_DIR=/tmp/clcache
cfgs=("0:0" "0:32" "1:32" "1:16" "1:8")
{ echo "=== machine"; nvidia-smi -L
  for c in "1:32" "1:8" "0:0"; do
    IFS=: read l r <<< "$c"
    echo "=== check_histeq_kernels, GPU, APPLY_LOCAL=$l APPLY_ROWS=$r ($(date +%T))"
    GST_CL_HISTEQ_APPLY_LOCAL=$l GST_CL_HISTEQ_APPLY_ROWS=$r KERNELCHECK_DEVICES=gpu \
      timeout 150 $B/tests/check_histeq_kernels > "$out/check-$l-$r.txt" 2>&1
    echo "exit $?"; tail -1 "$out/check-$l-$r.txt"; grep -m5 FAIL "$out/check-$l-$r.txt"
  done
} 2>&1 | tee "$out/check.log"
for pass in 1 2; do
  for c in "${cfgs[@]}"; do
    IFS=: read l r <<< "$c"
    for sz in "1920 1080 100" "3840 2160 60"; do
      echo "=== pass $pass APPLY_LOCAL=$l APPLY_ROWS=$r bench_histeq $sz"
      GST_CL_HISTEQ_APPLY_LOCAL=$l GST_CL_HISTEQ_APPLY_ROWS=$r timeout 60 \
        $B/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|fused|RGBA.*old"
    done
  done
done 2>&1 | tee "$out/kernels.log"
for c in "0:0" "1:32"; do
  IFS=: read l r <<< "$c"
  echo "=== bench.py GPU clhisteq, APPLY_LOCAL=$l APPLY_ROWS=$r ($(date +%T))"
  GST_CL_HISTEQ_APPLY_LOCAL=$l GST_CL_HISTEQ_APPLY_ROWS=$r GST_PLUGIN_PATH=$PWD/$B \
    timeout 150 python3 bench/bench.py --build-dir $B --devices gpu --sizes 1080p,4K \
    --items clhisteq,clhisteq-clahe --kinds ours,floor --reps 2 --out "$out/bench-$l-$r" \
    > "$out/bench-$l-$r.log" 2>&1
  echo "exit $?"; sed -n '/^## Headline/,$p' "$out/bench-$l-$r.log" | head -30
done 2>&1 | tee "$out/bench.log"
