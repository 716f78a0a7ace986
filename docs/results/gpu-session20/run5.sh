#!/bin/bash
# Session 20, device run 5: the one-launch kernel's group count and the
# local histogram copies. bench_histeq variants (plant-bin/, each built
# from this tree with constants changed, not kept), taking turns:
#   A_c16     16 copies (as committed before), groups 2 a compute unit
#   B_c4      4 copies
#   C_c4_8k   4 copies, at most one group per 8192 pixels
#   D_c4_32k  4 copies, one per 32768 pixels
#   E_c4_128k 4 copies, one per 131072 pixels
# and A, B with the apply in its own launch (ONE_LAUNCH=0), every line
# (GRAY8 and RGBA, global and CLAHE), as the copies serve every path.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
cfgs="A_c16:1 B_c4:1 C_c4_8k:1 D_c4_32k:1 E_c4_128k:1 A_c16:0 B_c4:0"
{ nvidia-smi -L
for pass in 1 2; do
  for c in $cfgs; do
    IFS=: read name one <<< "$c"
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      echo "=== pass $pass $name one=$one bench_histeq $sz"
      GST_CL_HISTEQ_ONE_LAUNCH=$one timeout 60 plant-bin/bench_$name $sz gpu 2>&1 | grep -E "floors|fused"
    done
  done
done; } > "$out/run5.out" 2>&1
