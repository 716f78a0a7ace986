#!/bin/bash
# Session 13, device run 1: clsobel's vertical-first tiles with the outer
# work-items summing their own edge columns (GST_CL_SOBEL_EDGE_COLS=1, tiles
# 128 pixels wide and aligned) against halo items (=0, 120 pixels): the GPU
# checker with each, kernel times taking turns, bench.py's ratios taking
# turns. . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L; nproc
  for e in 1 0; do
    echo "=== sobel checker, tiled, GPU, EDGE_COLS=$e ($(date +%T))"
    GST_CL_SOBEL_EDGE_COLS=$e KERNELCHECK_DEVICES=gpu timeout 90 \
      build/tests/check_sobel_kernels tiled > "$out/sobel-check-$e.txt" 2>&1
    echo "exit $?"; tail -1 "$out/sobel-check-$e.txt"; grep -m5 FAIL "$out/sobel-check-$e.txt"
  done; } > "$out/check.log"
cat "$out/check.log"
{
for pass in 1 2 3; do
  for e in 1 0; do
    echo "=== EDGE_COLS=$e pass $pass"
    GST_CL_SOBEL_EDGE_COLS=$e timeout 60 build/bench/bench_sobel_kernels 3840 2160 300 tiled gpu
    GST_CL_SOBEL_EDGE_COLS=$e timeout 60 build/bench/bench_sobel_kernels 1920 1080 300 tiled gpu
  done
done
} > "$out/sobel.log" 2>&1
grep -E "^===|y +tiled +(3|7) magn|rgba +tiled +3 magn" "$out/sobel.log" | cut -c1-110
for i in 1 2; do
  for e in 1 0; do
    echo "=== bench.py EDGE_COLS=$e run $i"
    GST_CL_SOBEL_EDGE_COLS=$e timeout 80 python3 bench/bench.py --items clsobel --sizes 4K,1080p \
      --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --budget 60 \
      --out "$out/b$e-$i" 2>&1 | grep -E "GPU: kernel"
  done
done > "$out/ratios.log"
cat "$out/ratios.log"
(cd "$out" && tar czf b.tgz b1-* b0-* && rm -rf b1-* b0-*)
