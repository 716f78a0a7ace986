#!/bin/bash
# Session 15, device run 1: clblur's vertical-first tile in packed halves
# (GST_CL_BLUR_HALF=1, the default on NVIDIA) against the float tile
# (GST_CL_BLUR_HALF=0), same build: the GPU checker with each, kernel times
# taking turns, bench.py's ratios taking turns.
# . .device/env.sh && [ITEMS=clsobel,clblur] bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
B=${B:-build-dev}
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L; nproc
  for h in 1 0; do
    echo "=== blur checker, tiled, GPU, GST_CL_BLUR_HALF=$h ($(date +%T))"
    GST_CL_BLUR_HALF=$h KERNELCHECK_DEVICES=gpu timeout 150 $B/tests/check_blur_kernels tiled > "$out/blur-check-half$h.txt" 2>&1
    echo "exit $?"; tail -1 "$out/blur-check-half$h.txt"; grep -m5 FAIL "$out/blur-check-half$h.txt"
  done
} > "$out/check.log" 2>&1
cat "$out/check.log"
{
for pass in 1 2 3; do
  for h in 1 0; do
    echo "=== GST_CL_BLUR_HALF=$h pass $pass"
    GST_CL_BLUR_HALF=$h timeout 60 $B/bench/bench_blur_frames 3840 2160 1.1 5 200 gpu
    GST_CL_BLUR_HALF=$h timeout 60 $B/bench/bench_blur_frames 1920 1080 1.1 5 200 gpu
  done
done
} > "$out/kernels.log" 2>&1
grep -E "^===|GRAY8|NV12|RGBA" "$out/kernels.log" | cut -c1-120
for i in 1 2 3; do
  for h in 1 0; do
    echo "=== bench.py GST_CL_BLUR_HALF=$h run $i"
    GST_CL_BLUR_HALF=$h GST_PLUGIN_PATH=$PWD/$B timeout 80 python3 bench/bench.py --build-dir $B --items ${ITEMS:-clblur} \
      --sizes 4K,1080p --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 \
      --seconds 0.2 --budget 60 --out "$out/half$h-$i" 2>&1 | grep -E "GPU: kernel"
  done
done > "$out/ratios.log"
cat "$out/ratios.log"
(cd /tmp/clcache && tar czf "$out/clcache.tgz" .)
