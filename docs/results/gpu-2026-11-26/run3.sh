#!/bin/bash
# Session 13, device run 3: clsobel's vertical-first tiles with 8 pixels of a
# row per work-item (GST_CL_SOBEL_PX=8: 8-byte loads and stores of Y, tiles
# 240 pixels wide) against 4 (=4, the committed code): the GPU checker with
# each, kernel times taking turns (8 also with other tile heights), bench.py's
# ratios taking turns. . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L; nproc
  for e in 8 4; do
    echo "=== sobel checker, tiled, GPU, PX=$e ($(date +%T))"
    GST_CL_SOBEL_PX=$e KERNELCHECK_DEVICES=gpu timeout 90 \
      build/tests/check_sobel_kernels tiled > "$out/sobel-check-$e.txt" 2>&1
    echo "exit $?"; tail -1 "$out/sobel-check-$e.txt"; grep -m5 FAIL "$out/sobel-check-$e.txt"
  done; } > "$out/check.log"
cat "$out/check.log"
{
for pass in 1 2 3; do
  for e in 8 4; do
    echo "=== PX=$e pass $pass"
    GST_CL_SOBEL_PX=$e timeout 60 build/bench/bench_sobel_kernels 3840 2160 300 tiled gpu
    GST_CL_SOBEL_PX=$e timeout 60 build/bench/bench_sobel_kernels 1920 1080 300 tiled gpu
  done
done
for t in 8:32x4 32:32x8 8:32x8 32:32x4; do
  echo "=== PX=8 TILE=$t"
  GST_CL_SOBEL_TILE=$t GST_CL_SOBEL_PX=8 timeout 60 build/bench/bench_sobel_kernels 3840 2160 300 tiled gpu
  GST_CL_SOBEL_TILE=$t GST_CL_SOBEL_PX=8 timeout 60 build/bench/bench_sobel_kernels 1920 1080 300 tiled gpu
done
} > "$out/sobel.log" 2>&1
grep -E "^===|y +tiled +(3|7) magn|y +tiled +3 x|rgba +tiled +3 magn" "$out/sobel.log" | cut -c1-110
for i in 1 2; do
  for e in 8 4; do
    echo "=== bench.py PX=$e run $i"
    GST_CL_SOBEL_PX=$e timeout 80 python3 bench/bench.py --items clsobel --sizes 4K,1080p \
      --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --budget 60 \
      --out "$out/b$e-$i" 2>&1 | grep -E "GPU: kernel"
  done
done > "$out/ratios.log"
cat "$out/ratios.log"
(cd "$out" && tar czf b.tgz b8-* b4-* && rm -rf b8-* b4-*)
