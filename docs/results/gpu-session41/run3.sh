#!/bin/bash
# Session 41, run 3: whether NVIDIA's compiler builds programs side by
# side. build_time as in run 2 (the options logged there), now also each
# kernel alone in threads of their own, all at once.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run3.log") 2>&1
b=docs/results/gpu-session41/building.txt
opts() { sed -n "$1s/^building $2 \[\(.*\)\] for .*/\1/p" $b; }
n=$(grep -n "^building histeq" $b | cut -d: -f1)
timeout 200 build/bench/build_time histeq "$(opts $n histeq)" gpu \
  histeq_hist_lut_c1 histeq_hist_lut_c4 histeq_equalize_c1 \
  histeq_equalize_keep_c1 histeq_clahe_one_c1 histeq_apply_clahe_lq_c1 \
  histeq_apply_global_c1 histeq_apply_global_c4 histeq_apply_clahe_c1 \
  histeq_apply_clahe_c4 histeq_copy | grep -v "^  histeq"
timeout 200 build/bench/build_time histeq "$(opts $n histeq)" gpu | \
  grep -v "^  histeq"
n=$(grep -n "^building blur" $b | head -1 | cut -d: -f1)
timeout 100 build/bench/build_time blur "$(opts $n blur)" gpu \
  blur_tiled_c1 blur_tiled_c2 blur_tiled_c4 blur_tiled_nv12 \
  blur_tiled_i420 | grep -v "^  blur"
echo "=== done $(date +%T)"
