#!/bin/bash
# Session 11, device run 6: clsobel's neighbours by warp shuffles on NVIDIA
# (WARP_XCHG, the new default there) against local memory
# (GST_CL_BUILD_OPTIONS=-DWARP_XCHG=0): the GPU checker, kernel times taking
# turns, and bench.py's 4K ratios. . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== sobel checker, tiled, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 90 build/tests/check_sobel_kernels tiled > "$out/sobel-check.txt" 2>&1
  echo "exit $?"; tail -1 "$out/sobel-check.txt"; } > "$out/check.log"
cat "$out/check.log"
{
for pass in 1 2 3; do
  for x in 1 0; do
    echo "=== WARP_XCHG=$x pass $pass"
    GST_CL_BUILD_OPTIONS="-DWARP_XCHG=$x" timeout 60 build/bench/bench_sobel_kernels 3840 2160 200 tiled gpu
    GST_CL_BUILD_OPTIONS="-DWARP_XCHG=$x" timeout 60 build/bench/bench_sobel_kernels 1920 1080 200 tiled gpu
  done
done
} > "$out/sobel.log" 2>&1
grep -E "^===|y +tiled +(3|7) magn|rgba +tiled +3 magn" "$out/sobel.log" | cut -c1-110
for i in 1 2; do
  for x in 1 0; do
    echo "=== bench.py WARP_XCHG=$x run $i"
    GST_CL_BUILD_OPTIONS="-DWARP_XCHG=$x" timeout 80 python3 bench/bench.py --items clsobel --sizes 4K,1080p \
      --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --budget 60 \
      --out "$out/b$x-$i" 2>&1 | grep -E "GPU: kernel"
  done
done > "$out/ratios.log"
cat "$out/ratios.log"
(cd "$out" && tar czf b.tgz b1-* b0-* && rm -rf b1-* b0-*)
