#!/bin/bash
# Session 14, device run 10: clsobel's magnitude as n * rsqrt (n) instead of
# sqrt (n) (a temporary switch, -DMAG_RSQRT=1 through GST_CL_BUILD_OPTIONS,
# build-exp/ = 8eb60fc plus the switch): the GPU checker, kernel times
# taking turns. . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run10}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
nvidia-smi -L
GST_CL_BUILD_OPTIONS="-DMAG_RSQRT=1" KERNELCHECK_DEVICES=gpu timeout 120 build-exp/tests/check_sobel_kernels tiled 2>&1 | tail -1
for pass in 1 2 3; do
  for o in "" "-DMAG_RSQRT=1"; do
    echo "=== pass $pass options '$o'"
    GST_CL_BUILD_OPTIONS="$o" timeout 60 build-exp/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +(3|7) magn|Scharr|-1 magn"
    GST_CL_BUILD_OPTIONS="$o" timeout 60 build-exp/bench/bench_sobel_kernels 1920 1080 300 tiled gpu | grep -E "y +tiled +3 magn"
  done
done 2>&1 | tee "$out/kernels.log"
