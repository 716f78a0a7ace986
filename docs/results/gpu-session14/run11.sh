#!/bin/bash
# Session 14, device run 11: taller clsobel tiles with the code of 8eb60fc
# (build-new/, a copy of build/ at f823b83 without its test cache), now
# that an item's arithmetic is what the taps need: 3, 5, 6 and 8 rows an
# item against the default 4, taking turns. . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run11}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
nvidia-smi -L
for pass in 1 2 3; do
  for tile in "" 12:32x4 20:32x4 24:32x4 32:32x4 64:32x8; do
    echo "=== pass $pass tile '$tile'"
    GST_CL_SOBEL_TILE=$tile timeout 60 build-new/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +(3|7) magn"
  done
done 2>&1 | tee "$out/kernels.log"
