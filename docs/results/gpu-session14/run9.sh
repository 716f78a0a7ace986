#!/bin/bash
# Session 14, device run 9 (H100): 8eb60fc (build-new/, a copy of build/
# without the test cache) against 1de6ff0 (build-old/): the GPU checkers,
# clsobel kernel times and bench.py's ratios, taking turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run9}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L; nproc
  for k in sobel blur; do
    echo "=== $k checker, tiled, GPU ($(date +%T))"
    KERNELCHECK_DEVICES=gpu timeout 120 build-new/tests/check_${k}_kernels tiled > "$out/$k-check.txt" 2>&1
    echo "exit $?"; tail -1 "$out/$k-check.txt"; grep -m5 FAIL "$out/$k-check.txt"
  done
} > "$out/check.log" 2>&1
cat "$out/check.log"
for pass in 1 2; do
  for b in build-new build-old; do
    echo "=== $b pass $pass"
    timeout 60 $b/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +(3|7) magn|y +tiled +3 x"
    timeout 60 $b/bench/bench_sobel_kernels 1920 1080 300 tiled gpu | grep -E "y +tiled +3 magn"
  done
done > "$out/kernels.log" 2>&1
cat "$out/kernels.log"
for i in 1 2 3; do
  for b in build-new build-old; do
    echo "=== bench.py $b run $i"
    GST_PLUGIN_PATH=$PWD/$b timeout 80 python3 bench/bench.py --build-dir $b --items clsobel,clblur \
      --sizes 4K,1080p --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 \
      --seconds 0.2 --budget 60 --out "$out/$b-$i" 2>&1 | grep -E "GPU: kernel"
  done
done > "$out/ratios.log"
cat "$out/ratios.log"
(cd "$out" && tar czf b.tgz build-* && rm -rf build-*/)
