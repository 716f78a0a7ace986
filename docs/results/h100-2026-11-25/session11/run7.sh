#!/bin/bash
# Session 11, device run 7: clblur's neighbours by warp shuffles on NVIDIA
# (WARP_XCHG) against local memory (-DWARP_XCHG=0): the GPU checker (tiled),
# b2b times taking turns, bench.py's 4K ratios. . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run7}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== blur checker, tiled, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 110 build/tests/check_blur_kernels tiled > "$out/blur-check.txt" 2>&1
  echo "exit $?"; tail -1 "$out/blur-check.txt"; } > "$out/check.log"
cat "$out/check.log"
{
for pass in 1 2 3; do
  for x in 1 0; do
    echo "=== WARP_XCHG=$x pass $pass"
    GST_CL_BUILD_OPTIONS="-DWARP_XCHG=$x" timeout 40 build/bench/bench_blur_frames 3840 2160 1.1 5 200 gpu
    GST_CL_BUILD_OPTIONS="-DWARP_XCHG=$x" timeout 40 build/bench/bench_blur_frames 1920 1080 1.1 5 200 gpu
  done
done
} > "$out/blur.log" 2>&1
grep -E "^===|GRAY8 +plane|NV12 +one-launch" "$out/blur.log" | cut -c1-120
for x in 1 0; do
  echo "=== bench.py WARP_XCHG=$x"
  GST_CL_BUILD_OPTIONS="-DWARP_XCHG=$x" timeout 60 python3 bench/bench.py --items clblur,clsobel --sizes 4K \
    --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --budget 45 \
    --out "$out/b$x" 2>&1 | grep -E "GPU: kernel"
done > "$out/ratios.log"
cat "$out/ratios.log"
(cd "$out" && tar czf b.tgz b1 b0 && rm -rf b1 b0)
