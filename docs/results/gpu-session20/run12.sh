#!/bin/bash
# Session 20, device run 12: what the GPU histogram phase's time is made
# of. bench_histeq variants of fd2f402 (plant-bin/, not kept; their output
# is wrong, only their times count), taking turns, two passes:
#   cur         as committed
#   noatomics   hist_rows16_c1 loads its 16 bytes but XORs them into a
#               register instead of 16 local atomics
#   nohist      histeq_equalize_c1 without the histogram loop (the clear,
#               merge, LUT, flag and apply remain)
# each with the apply in one launch (1) and, for cur and noatomics, in
# its own (0).
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run12}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ nvidia-smi -L
for pass in 1 2; do
  for c in cur:1 cur:0 noatomics:1 noatomics:0 nohist:1; do
    IFS=: read v one <<< "$c"
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      echo "=== pass $pass $v one=$one bench_histeq $sz"
      GST_CL_HISTEQ_ONE_LAUNCH=$one timeout 60 plant-bin/bench_$v $sz gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
    done
  done
done; } > "$out/run12.out" 2>&1
