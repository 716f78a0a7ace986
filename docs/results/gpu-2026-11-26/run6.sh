#!/bin/bash
# Session 13, device run 6 (H100): clsobel's shuffle path a row at a time
# (the new code, build/) against all rows first (HEAD before it, build-old/,
# built from a clean worktree of 1b3c58e): the GPU checker, kernel times
# taking turns, bench.py's ratios taking turns. . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L; nproc
  echo "=== sobel checker, tiled, GPU ($(date +%T))"
  GST_PLUGIN_PATH=$PWD/build KERNELCHECK_DEVICES=gpu timeout 90 \
    build/tests/check_sobel_kernels tiled > "$out/sobel-check.txt" 2>&1
  echo "exit $?"; tail -1 "$out/sobel-check.txt"; grep -m5 FAIL "$out/sobel-check.txt"
} > "$out/check.log" 2>&1
cat "$out/check.log"
{
for pass in 1 2 3; do
  for b in build build-old; do
    echo "=== $b pass $pass"
    timeout 60 $b/bench/bench_sobel_kernels 3840 2160 300 tiled gpu
    timeout 60 $b/bench/bench_sobel_kernels 1920 1080 300 tiled gpu
  done
done
} > "$out/sobel.log" 2>&1
grep -E "^===|y +tiled +(3|7) magn|y +tiled +3 x|rgba +tiled +3 magn" "$out/sobel.log" | cut -c1-110
for i in 1 2 3; do
  for b in build build-old; do
    echo "=== bench.py $b run $i"
    GST_PLUGIN_PATH=$PWD/$b timeout 80 python3 bench/bench.py --build-dir $b --items clsobel,clblur \
      --sizes 4K,1080p --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 \
      --seconds 0.2 --budget 60 --out "$out/$b-$i" 2>&1 | grep -E "GPU: kernel"
  done
done > "$out/ratios.log"
cat "$out/ratios.log"
(cd "$out" && tar czf b.tgz build-* && rm -rf build-*/)
