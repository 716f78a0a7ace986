#!/bin/bash
# Session 15, device runs 3 (H200) and 4 (H100): clsobel's vertical-first tile reading luma as
# 32768 + b by byte permutes (build-dev/) against 5b991fa (build-old/, a
# clean worktree: luma by conversions): the GPU checkers (now with aligned
# rows too), kernel times taking turns, bench.py's ratios taking turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L; nproc
  for k in sobel blur; do
    echo "=== $k checker, tiled, GPU ($(date +%T))"
    KERNELCHECK_DEVICES=gpu timeout 150 build-dev/tests/check_${k}_kernels tiled > "$out/$k-check.txt" 2>&1
    echo "exit $?"; tail -1 "$out/$k-check.txt"; grep -m5 FAIL "$out/$k-check.txt"
  done
} > "$out/check.log" 2>&1
cat "$out/check.log"
{
for pass in 1 2 3; do
  for b in build-dev build-old; do
    echo "=== $b pass $pass"
    timeout 60 $b/bench/bench_sobel_kernels 3840 2160 300 tiled gpu
    timeout 60 $b/bench/bench_sobel_kernels 1920 1080 300 tiled gpu
  done
done
} > "$out/kernels.log" 2>&1
grep -E "^===|y +tiled +(3|7) magn|y +tiled +3 x|rgba +tiled +3 magn" "$out/kernels.log" | cut -c1-120
for i in 1 2 3; do
  for b in build-dev build-old; do
    echo "=== bench.py $b run $i"
    GST_PLUGIN_PATH=$PWD/$b timeout 80 python3 bench/bench.py --build-dir $b --items clsobel,clblur \
      --sizes 4K,1080p --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 \
      --seconds 0.2 --budget 60 --out "$out/$b-$i" 2>&1 | grep -E "GPU: kernel"
  done
done > "$out/ratios.log"
cat "$out/ratios.log"
rm -rf "$out"/build-*/
