#!/bin/bash
# Session 20, device run 4: what the one-launch kernel's histogram phase
# costs. bench_histeq taking turns: this build (build-dev, one launch, 2
# groups a compute unit, and ONE_LAUNCH=0), and three variants built from
# it with one change each (plant-bin/, not kept):
#   v1_add      atomic_add (p, 1) for atomic_inc (p) in hist_rows16_c1
#   v2_rows     the row-at-a-time uchar4 histogram loop, not hist_rows16_c1
#   v3_copies4  4 local histogram copies on GPUs, not 16
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
cfgs="dev:build-dev/bench/bench_histeq:GST_CL_HISTEQ_ONE_LAUNCH=1 dev-two:build-dev/bench/bench_histeq:GST_CL_HISTEQ_ONE_LAUNCH=0 v1_add:plant-bin/bench_v1_add:GST_CL_HISTEQ_ONE_LAUNCH=1 v1_add-two:plant-bin/bench_v1_add:GST_CL_HISTEQ_ONE_LAUNCH=0 v2_rows:plant-bin/bench_v2_rows:GST_CL_HISTEQ_ONE_LAUNCH=1 v3_copies4:plant-bin/bench_v3_copies4:GST_CL_HISTEQ_ONE_LAUNCH=1"
{ nvidia-smi -L
for pass in 1 2; do
  for c in $cfgs; do
    IFS=: read name bin env <<< "$c"
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      echo "=== pass $pass $name bench_histeq $sz"
      env $env timeout 60 $bin $sz gpu 2>&1 | grep -E "floors|GRAY8.*global smooth=0.*fused"
    done
  done
done; } > "$out/run4.out" 2>&1
