#!/bin/bash
# Session 13, device run 5: clsobel's tiled kernel with fewer registers,
# NVIDIA's -cl-nv-maxrregcount=N (through GST_CL_BUILD_OPTIONS), with the
# committed order and a row at a time (-DROWWISE=1); kernel times taking
# turns, three passes. . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
nvidia-smi -L
{
for pass in 1 2 3; do
  for v in "-DROWWISE=0" "-DROWWISE=1" "-DROWWISE=0 -cl-nv-maxrregcount=64" \
      "-DROWWISE=0 -cl-nv-maxrregcount=48" "-DROWWISE=1 -cl-nv-maxrregcount=48" \
      "-DROWWISE=0 -cl-nv-maxrregcount=40"; do
    echo "=== $v pass $pass"
    GST_CL_BUILD_OPTIONS="$v" timeout 60 build/bench/bench_sobel_kernels 3840 2160 300 tiled gpu
    GST_CL_BUILD_OPTIONS="$v" timeout 60 build/bench/bench_sobel_kernels 1920 1080 300 tiled gpu
  done
done
} > "$out/sobel.log" 2>&1
grep -E "^===|y +tiled +(3|7) magn|y +tiled +3 x" "$out/sobel.log" | cut -c1-110
