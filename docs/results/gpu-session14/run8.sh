#!/bin/bash
# Session 14, device run 8: the clsobel tile of 8eb60fc (build/): registers
# from NVIDIA's build log, -cl-nv-maxrregcount, and tile shapes, taking turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run8}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
nvidia-smi -L
for opt in "" "-cl-nv-maxrregcount=64" "-cl-nv-maxrregcount=48" "-cl-nv-maxrregcount=40"; do
  echo "=== registers with '$opt'"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose $opt" \
    timeout 60 build/bench/bench_sobel_kernels 3840 2160 5 tiled gpu 2>&1 |
    grep -E "ptxas|Used|magnitude|x  " | grep -A2 "sobel_tiled_y_o1'" | head -3
done > "$out/registers.log" 2>&1
cat "$out/registers.log"
for pass in 1 2; do
  for opt in "" "-cl-nv-maxrregcount=64" "-cl-nv-maxrregcount=48" "-cl-nv-maxrregcount=40"; do
    echo "=== pass $pass options '$opt'"
    GST_CL_BUILD_OPTIONS="$opt" timeout 60 build/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +(3|7) magn"
  done
  for tile in 8:32x4 16:32x8 32:32x8 4:32x4 8:32x8; do
    echo "=== pass $pass tile $tile"
    GST_CL_SOBEL_TILE=$tile timeout 60 build/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +(3|7) magn"
  done
done 2>&1 | tee "$out/kernels.log"
